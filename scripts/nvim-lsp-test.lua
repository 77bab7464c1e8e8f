-- A real editor drives `nullius server`: Neovim's built-in LSP client
-- (Neovim 0.7, as Debian 12 ships it) starts the server for a Python file,
-- waits for its diagnostics, edits the buffer to fix the finding and waits
-- for the diagnostics of the edited text, then shuts the server down.
-- Each snapshot of the diagnostics is written to NULLIUS_NVIM_OUT, one line
-- per finding: "line:col-end_line:end_col severity code message" with
-- 0-based lines and byte columns, as Neovim stores them after converting
-- the server's UTF-16 positions.
--
-- Run by cmd/nullius/testdata/script/server_nvim.txtar:
--   NULLIUS_NVIM_FILE=pkg/src/x/__init__.py NULLIUS_NVIM_ROOT=pkg NULLIUS_NVIM_OUT=out.txt \
--     nvim --headless --clean -c 'luafile scripts/nvim-lsp-test.lua'
--
-- Every wait is for an event (diagnostics arriving, the client stopping);
-- the timeouts only turn a hang into a failure.

local hang_guard = 60000

local function snapshot(bufnr, label)
  local lines = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(lines, string.format('%d:%d-%d:%d %d %s %s', d.lnum, d.col, d.end_lnum, d.end_col, d.severity, d.code or '?', d.message))
  end
  table.sort(lines)
  table.insert(lines, 1, '# ' .. label)
  return lines
end

local function has_code(bufnr, code)
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.code == code then
      return true
    end
  end
  return false
end

local function main()
  local file = assert(vim.env.NULLIUS_NVIM_FILE, 'NULLIUS_NVIM_FILE is not set')
  local out = assert(vim.env.NULLIUS_NVIM_OUT, 'NULLIUS_NVIM_OUT is not set')
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()

  -- What docs/editors.md tells users to configure, for Neovim 0.7.
  local client_id = vim.lsp.start_client({
    name = 'nullius',
    cmd = { 'nullius', 'server' },
    root_dir = vim.fn.fnamemodify(vim.env.NULLIUS_NVIM_ROOT or '.', ':p'),
  })
  assert(client_id, 'nullius server did not start')
  assert(vim.lsp.buf_attach_client(bufnr, client_id), 'could not attach the client')

  assert(vim.wait(hang_guard, function() return has_code(bufnr, 'GAIA011') end, 20),
    'no GAIA011 diagnostic from nullius server')
  local result = snapshot(bufnr, 'opened')

  -- Fix the grade in the buffer (not on disk): 0.8 -> 0.9 and 0.1 -> 0.09,
  -- sent as incremental changes.
  local lnum = vim.fn.search('p_e_given_h=0.8', 'n') - 1
  local line = vim.api.nvim_buf_get_lines(bufnr, lnum, lnum + 1, true)[1]
  local s = line:find('0.1)', 1, true)
  vim.api.nvim_buf_set_text(bufnr, lnum, s - 1, lnum, s + 2, { '0.09' })
  s = line:find('0.8,', 1, true)
  vim.api.nvim_buf_set_text(bufnr, lnum, s - 1, lnum, s + 2, { '0.9' })
  assert(vim.wait(hang_guard, function() return not has_code(bufnr, 'GAIA011') end, 20),
    'GAIA011 stayed after the buffer was fixed')
  vim.list_extend(result, snapshot(bufnr, 'fixed in the buffer'))

  vim.fn.writefile(result, out)
  vim.lsp.stop_client(client_id)
  assert(vim.wait(hang_guard, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20),
    'nullius server did not stop')
end

local ok, err = pcall(main)
if not ok then
  io.stderr:write('nvim-lsp-test: ' .. tostring(err) .. '\n')
  vim.cmd('cquit 1')
end
vim.cmd('qall!')
