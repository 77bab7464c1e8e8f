// Drives the page `nullius render` writes in headless Chromium (Debian's
// chromium package) and checks what a reader sees: clicking a card opens the
// details with three-decimal numbers and the expected links, hovering an
// arrow highlights it, the legend expands, and in the hostile fixture no
// script or event handler from graph text ever runs.
//
//   node render.test.mjs --normal PAGE --hostile PAGE [--larger PAGE] --out DIR
//
// Exits 1 on any failed check, 2 when the browser cannot be driven at all.
// Writes DIR/argument-graph.png (and -detail.png) for people to look at.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
for (const need of ['normal', 'hostile', 'out']) {
  if (!args[need]) {
    console.error(`usage: node render.test.mjs --normal PAGE --hostile PAGE --out DIR (missing --${need})`);
    process.exit(2);
  }
}
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const failures = [];
let checks = 0;
function check(cond, what) {
  checks++;
  if (!cond) {
    failures.push(what);
    console.log(`FAIL ${what}`);
  } else {
    console.log(`ok   ${what}`);
  }
}
const THREE = /^[01]\.\d{3}$/;

async function open(context, file) {
  const page = await context.newPage();
  const events = { dialogs: [], errors: [], requests: [] };
  page.on('dialog', (d) => { events.dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  page.on('console', (m) => { if (m.type() === 'error') events.errors.push(m.text()); });
  page.on('pageerror', (e) => events.errors.push(String(e)));
  page.on('request', (r) => events.requests.push(r.url()));
  const url = pathToFileURL(resolve(file)).href;
  await page.goto(url, { waitUntil: 'load' });
  // The script marks the document once it has wired every control; if the
  // CSP hash were wrong the script would not run and this would time out.
  await page.waitForSelector('html.js', { timeout: 5000 });
  return { page, events, url };
}

// Every button, link, focusable and expandable element carries an id.
async function idsEverywhere(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('button, a, input, select, textarea, details, summary, [tabindex], [role=button]')]
      .filter((e) => !e.id)
      .map((e) => e.outerHTML.slice(0, 80)));
}

async function detailNumbers(page) {
  return page.$$eval('#detail dd.num', (dds) => dds.map((d) => d.textContent));
}

async function detailLinks(page) {
  return page.$$eval('#detail a', (as) => as.map((a) => ({ text: a.textContent, href: a.getAttribute('href'), abs: a.href, id: a.id })));
}

// The Go layout estimated card heights without a browser: no statement may
// need its scrollbar, and no two cards may overlap.
async function cardsFit(page, name) {
  const fit = await page.$$eval('.card', (cs) => cs.map((c) => {
    const st = c.querySelector('.card-statement');
    const r = c.getBoundingClientRect();
    return { id: c.id, overflow: st.scrollHeight - st.clientHeight, r: [r.left, r.top, r.right, r.bottom] };
  }));
  check(fit.every((f) => f.overflow <= 1), `${name}: every statement fits its card (${fit.filter((f) => f.overflow > 1).map((f) => f.id)})`);
  const overlaps = fit.flatMap((a, i) => fit.slice(0, i).filter((b) => a.r[0] < b.r[2] && b.r[0] < a.r[2] && a.r[1] < b.r[3] && b.r[1] < a.r[3]).map((b) => `${a.id}/${b.id}`));
  check(overlaps.length === 0, `${name}: no cards overlap (${overlaps})`);
}

async function testNormal(context) {
  const { page, events, url } = await open(context, args.normal);
  await page.setViewportSize({ width: 1440, height: 900 });

  check(await page.textContent('#root-summary') === 'worth posterior 0.850', 'header shows worth posterior 0.850');
  const cardValues = await page.$$eval('.card-belief .v', (vs) => vs.map((v) => v.textContent));
  check(cardValues.length === 8 && cardValues.every((v) => THREE.test(v)), `every card posterior has three decimals (${cardValues.join(' ')})`);

  await cardsFit(page, 'normal');

  // The criteria GAIA507 reports carry the "not connected to worth" badge,
  // and only they; the header counts them; a badged card's details say why.
  const badged = await page.$$eval('.card', (cs) => cs.filter((c) => c.querySelector('.badge-disconnected')).map((c) => c.id));
  check(badged.join(' ') === 'card-downstream_reach card-mechanism_insight card-testability_timing card-verification_cost',
    `the four unconnected criteria carry the badge (${badged.join(' ')})`);
  check(await page.isVisible('#card-downstream_reach .badge-disconnected') &&
    (await page.textContent('#card-downstream_reach .badge-disconnected')) === 'not connected to worth', 'the badge is visible and says so');
  const label = await page.$eval('#card-downstream_reach', (c) => {
    const l = c.querySelector('.card-label').getBoundingClientRect();
    const b = c.querySelector('.badge-disconnected').getBoundingClientRect();
    const r = c.getBoundingClientRect();
    return { apart: l.right <= b.left + 0.5, inside: b.right <= r.right && b.left >= r.left };
  });
  check(label.apart && label.inside, `the badge sits inside its card beside the label (${JSON.stringify(label)})`);
  check(await page.textContent('#disconnected-summary') === '4 criteria not connected to worth', 'the header counts the unconnected criteria');
  await page.click('#card-mechanism_insight');
  check((await page.textContent('#detail')).includes('not connected to worth: no infer path leads from this criterion to worth'), 'a badged card\'s details explain the badge');
  await page.click('#detail-close');

  // Click a card: the details of tension_resolution.
  await page.click('#card-tension_resolution');
  check(await page.isVisible('#detail'), 'clicking a card opens the detail panel');
  check(await page.textContent('#detail-title') === 'tension_resolution', 'detail title is the variable name');
  const statement = await page.textContent('#detail .statement');
  check(statement.startsWith('Distilling the dense teacher'), 'detail shows the full statement');
  const nums = await detailNumbers(page);
  check(nums.length > 0 && nums.every((n) => THREE.test(n)), `detail numbers have three decimals (${nums.join(' ')})`);
  check(nums[0] === '0.937', 'posterior 0.937 shown first');
  for (const want of ['0.900', '0.090', '0.750', '0.250']) {
    check(nums.includes(want), `P(e|h)/P(e|not h) ${want} shown after the click`);
  }
  const links = await detailLinks(page);
  const byText = Object.fromEntries(links.map((l) => [l.text, l]));
  const md = byText['docs/executed-check.md#results'];
  check(md && md.href.endsWith('docs/executed-check.md#results') && !md.href.includes(':'), `in-project Markdown anchor is a relative link (${md && md.href})`);
  if (md) {
    const target = fileURLToPath(md.abs.split('#')[0]);
    check(existsSync(target), `the Markdown link resolves from the page to an existing file (${target})`);
  }
  check(byText['https://arxiv.org/abs/2401.00001']?.href === 'https://arxiv.org/abs/2401.00001', 'https anchor is a link');
  check(!byText['docs/missing-note.md'], 'a Markdown anchor that does not exist is not a link');
  check((await page.textContent('#detail')).includes('docs/missing-note.md'), '...but it is shown as text');
  check(links.every((l) => l.id), 'every link created after the click has an id');

  // The observed evidence shows its observation rationale and anchors.
  await page.click('#card-ev_cost');
  const costLinks = await detailLinks(page);
  check(costLinks.some((l) => l.text === 'docs/budget.md') && costLinks.some((l) => l.href === 'https://example.org/compute-budget'),
    'observation anchors link the budget note and the https source');
  check((await page.textContent('#detail')).includes('evidence_family: scope-limitation'), 'observation rationale shown');
  check((await idsEverywhere(page)).length === 0, `every control has an id with a detail open (${await idsEverywhere(page)})`);
  await page.screenshot({ path: join(args.out, 'argument-graph-detail.png'), fullPage: true });

  // Close with the button, then with Escape.
  await page.click('#detail-close');
  check(await page.isHidden('#detail'), 'detail-close hides the panel');
  await page.click('#card-worth');
  await page.keyboard.press('Escape');
  check(await page.isHidden('#detail'), 'Escape hides the panel');

  // Hover an edge: ev_cost -> worth, the dashed lowering one.
  const edge = '#edge-2';
  await page.mouse.move(2, 2); // off every card: hovering a card highlights its edges too
  check(await page.getAttribute(edge, 'class') === 'edge lowers grade-weak', `ev_cost -> worth is a lowering weak edge (${await page.getAttribute(edge, 'class')})`);
  const dash = await page.$eval(`${edge} .line`, (p) => getComputedStyle(p).strokeDasharray);
  const solid = await page.$eval('#edge-0 .line', (p) => getComputedStyle(p).strokeDasharray);
  check(dash !== 'none' && solid === 'none', `lowering edge dashed (${dash}), raising edge solid (${solid})`);
  const w0 = await page.$eval('#edge-0 .line', (p) => parseFloat(p.getAttribute('stroke-width')));
  const w1 = await page.$eval('#edge-1 .line', (p) => parseFloat(p.getAttribute('stroke-width')));
  check(w0 > w1, `substantial edge wider than weak (${w0} > ${w1})`);
  const chips = await page.$$eval('.edge .chip text', (ts) => ts.map((t) => t.textContent));
  check(chips.join('|') === 'substantial ×10|weak ×3|weak ×3', `chips read ${chips.join(', ')}`);
  const box = await page.$eval(`${edge} .chip`, (g) => { const r = g.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; });
  await page.mouse.move(box.x, box.y);
  await page.waitForTimeout(50);
  check((await page.getAttribute(edge, 'class')).split(' ').includes('hl'), 'hovering an edge adds the hl class');
  check((await page.getAttribute('#card-ev_cost', 'class')).includes('hl-end') && (await page.getAttribute('#card-worth', 'class')).includes('hl-end'),
    'hovering an edge highlights both of its cards');
  await page.mouse.move(2, 2);
  await page.waitForTimeout(50);
  check(!(await page.getAttribute(edge, 'class')).split(' ').includes('hl'), 'leaving the edge removes the highlight');

  // Click an edge: its own details.
  await page.mouse.click(box.x, box.y);
  check(await page.textContent('#detail-title') === 'ev_cost → worth', 'clicking an edge opens its details');
  const eNums = await detailNumbers(page);
  check(eNums[0] === '0.250' && eNums[1] === '0.750', `edge detail P(e|h) 0.250, P(e|not h) 0.750 (${eNums.join(' ')})`);
  await page.click('#detail-close');

  // Keyboard: a focused card or arrow opens with Enter; focus highlights an arrow.
  await page.focus('#card-worth');
  await page.keyboard.press('Enter');
  check(await page.textContent('#detail-title') === 'worth', 'Enter on a focused card opens its details');
  await page.keyboard.press('Escape');
  await page.focus('#edge-0');
  check((await page.getAttribute('#edge-0', 'class')).split(' ').includes('hl'), 'a focused arrow is highlighted');
  await page.keyboard.press('Enter');
  check(await page.textContent('#detail-title') === 'ev_tension → tension_resolution', 'Enter on a focused arrow opens its details');
  await page.keyboard.press('Escape');

  // Legend expander.
  check(await page.isHidden('#legend-body'), 'legend starts collapsed');
  await page.click('#legend-toggle');
  check(await page.isVisible('#legend-body') && (await page.getAttribute('#legend-toggle', 'aria-expanded')) === 'true', 'legend-toggle expands the legend');
  check((await page.textContent('#legend-body')).includes('30 strong'), 'legend explains the grades');

  check(events.errors.length === 0, `no console errors or CSP violations (${events.errors.join(' | ')})`);
  check(events.requests.every((u) => u === url), `no request besides the page itself (${events.requests.filter((u) => u !== url).join(' ')})`);
  await page.screenshot({ path: join(args.out, 'argument-graph.png'), fullPage: true });
  await page.close();
}

async function injected(page) {
  return page.evaluate(() => ({
    imgs: document.querySelectorAll('img, iframe, object, embed').length,
    scripts: document.querySelectorAll('script').length,
    handlers: [...document.querySelectorAll('*')].flatMap((e) => [...e.attributes].filter((a) => a.name.toLowerCase().startsWith('on')).map((a) => `${e.tagName}.${a.name}`)),
    badLinks: [...document.querySelectorAll('a')].filter((a) => !['http:', 'https:', 'file:'].includes(a.protocol) || /javascript|data:|vbscript/i.test(a.getAttribute('href') || '')).map((a) => a.getAttribute('href')),
    pwned: window.__pwned === true,
  }));
}

async function testHostile(context) {
  const { page, events } = await open(context, args.hostile);
  const cards = await page.$$eval('.card', (cs) => cs.map((c) => c.id));
  const edges = await page.$$eval('.edge', (es) => es.map((e) => e.id));
  check(cards.length === 4 && edges.length === 3, `hostile graph drawn (${cards.length} cards, ${edges.length} edges)`);
  check((await page.textContent('#card-worth .card-statement')).includes('<script>alert(1)</script>'), 'hostile statement shown as text on its card');
  await cardsFit(page, 'hostile');
  for (const id of [...cards, ...edges]) {
    await page.click(`#${id}`, { force: true });
    await page.waitForTimeout(20);
    const inj = await injected(page);
    check(inj.imgs === 0 && inj.scripts === 2 && inj.handlers.length === 0 && inj.badLinks.length === 0 && !inj.pwned,
      `after opening ${id}: no injected element, handler or unsafe link (${JSON.stringify(inj)})`);
  }
  await page.click('#card-ev_x');
  const text = await page.textContent('#detail');
  check(text.includes('javascript:alert(1)') && text.includes('"><img src=x onerror=alert(1)>'), 'hostile anchors shown as plain text');
  const links = await detailLinks(page);
  check(links.every((l) => /^https?:/.test(l.href)), `only http(s) links in hostile details (${links.map((l) => l.href).join(' ')})`);
  check((await idsEverywhere(page)).length === 0, 'every control has an id in the hostile page');
  await page.click('#detail-close');
  await page.click('#legend-toggle');
  await page.hover('#edge-1 .chip');
  await page.waitForTimeout(100);
  check(events.dialogs.length === 0, `no dialog ever fired (${events.dialogs.join(' | ')})`);
  check(events.errors.length === 0, `no console errors or CSP violations (${events.errors.join(' | ')})`);
  await page.screenshot({ path: join(args.out, 'hostile.png'), fullPage: true });
  await page.close();
}

async function testLarger(context) {
  const { page, events } = await open(context, args.larger);
  const cards = await page.$$eval('.card', (cs) => cs.length);
  const edges = await page.$$eval('.edge', (es) => es.map((e) => e.getAttribute('class')));
  check(cards === 13 && edges.length === 12, `larger graph drawn (${cards} cards, ${edges.length} edges)`);
  await cardsFit(page, 'larger');
  check(edges.filter((c) => c.includes('grade-off-grade')).length === 2 && edges.some((c) => c.startsWith('edge flat')),
    `off-grade and flat updates are marked (${edges.join(', ')})`);
  // Chips must not cover each other.
  const chips = await page.$$eval('.chip rect', (rs) => rs.map((r) => { const b = r.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; }));
  const hit = chips.flatMap((a, i) => chips.slice(0, i).filter((b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]));
  check(hit.length === 0, `no two chips overlap (${hit.length})`);
  await page.click('#card-ev_flat');
  const nums = await detailNumbers(page);
  check(nums.includes('0.500') && (await page.textContent('#detail')).includes('leaves belief in downstream_reach unchanged'), 'a flat update says it moves nothing');
  check((await page.textContent('#detail')).includes('is not one of the literal grade pairs'), 'a non-literal pair carries the grade note');
  await page.click('#detail-close');
  check((await page.textContent('#notes')).includes('1 deduction strategy not drawn'), 'the notes list what is not drawn');
  check((await page.$$('.badge-disconnected')).length === 0, 'no badge where every criterion reaches worth');

  // The exclusive() operator is listed under Relations, with links to its
  // drawn claims; it is never an arrow.
  const rel = await page.$$eval('#relations .relation', (ls) => ls.map((l) => l.textContent));
  check(rel.length === 1 && rel[0].startsWith('exclusive(ev_survey, ev_cost): exactly one of ev_survey and ev_cost is true'),
    `the exclusive() operator is listed (${rel.join(' | ')})`);
  const relLinks = await page.$$eval('#relations .relation a', (as) => as.map((a) => a.getAttribute('href')));
  check(relLinks.join(' ') === '#card-ev_survey #card-ev_cost', `its members link to their cards (${relLinks.join(' ')})`);
  check(await page.textContent('#relations-summary') === '1 relation', 'the header counts the relations');

  // A match artifact named in an anchor is a link relative to the page.
  await page.click('#card-ev_survey');
  const art = (await detailLinks(page)).find((l) => l.text === 'artifacts/matches/match-5d0b3e21.json');
  check(art && art.href.endsWith('artifacts/matches/match-5d0b3e21.json') && !art.href.includes(':') && !art.href.startsWith('/'),
    `the match-artifact anchor is a relative link (${art && art.href})`);
  if (art) {
    check(existsSync(fileURLToPath(art.abs)), `the artifact link resolves from the page to the file (${art.abs})`);
  }
  await page.click('#detail-close');
  check(events.errors.length === 0, `larger: no console errors (${events.errors.join(' | ')})`);
  await page.screenshot({ path: join(args.out, 'larger.png'), fullPage: true });
  await page.close();
}

async function main() {
  mkdirSync(args.out, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'nullius-browsertest-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
      viewport: { width: 1440, height: 900 },
      offline: true,
    });
  } catch (e) {
    console.error(`nullius browsertest: could not start ${executablePath}: ${e.message.split('\n')[0]}`);
    rmSync(profile, { recursive: true, force: true });
    process.exit(2);
  }
  try {
    await testNormal(context);
    await testHostile(context);
    if (args.larger) await testLarger(context);
  } catch (e) {
    failures.push(`driver error: ${e.message.split('\n')[0]}`);
    console.log(`FAIL driver error: ${e.stack}`);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  console.log(`${checks - failures.length}/${checks} checks passed; screenshots in ${args.out}`);
  process.exit(failures.length ? 1 : 0);
}

main();
