(function () {
  'use strict';
  // Everything shown here comes from the graph-data block, which nullius
  // wrote as JSON with <, >, & and U+2028/9 escaped. Text only ever reaches
  // the page through textContent; links only through the allow-lists below.
  var data = JSON.parse(document.getElementById('graph-data').textContent);
  var detail = document.getElementById('detail');
  var body = document.getElementById('detail-body');
  var selected = null;
  var linkCount = 0;

  var WEB = /^https?:\/\/[^\s"'<>`\\]+$/i;
  var LOCAL = /^(?![\/\\])[A-Za-z0-9._~%\/-]+(#[A-Za-z0-9._~%-]*)?$/;

  function safeHref(h) {
    return typeof h === 'string' && (WEB.test(h) || (LOCAL.test(h) && h.indexOf('//') < 0));
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }

  function field(dl, key, value, cls) {
    dl.appendChild(el('dt', null, key));
    dl.appendChild(el('dd', cls || 'num', value));
  }

  function anchors(segs) {
    var p = el('p', 'anchors');
    p.appendChild(el('span', 'k', 'anchor '));
    if (!segs || segs.length === 0) {
      p.appendChild(el('span', 'none', 'none given'));
      return p;
    }
    segs.forEach(function (s) {
      if (s.href && safeHref(s.href)) {
        var a = el('a', 'anchor-link', s.text);
        a.id = 'detail-link-' + (linkCount++);
        a.setAttribute('href', s.href);
        a.setAttribute('rel', 'noopener noreferrer');
        a.setAttribute('target', '_blank');
        p.appendChild(a);
      } else {
        p.appendChild(el('span', 'anchor-text', s.text));
      }
    });
    return p;
  }

  function chip(e) {
    return el('span', 'chip-inline ' + e.direction + ' grade-' + e.chip, e.chip + ' ' + e.ratio);
  }

  function nodeName(i) { return data.nodes[i].name; }

  function update(e, suffix) {
    var li = el('li', 'update ' + e.direction);
    var head = el('button', 'update-head');
    head.type = 'button';
    head.id = 'detail-edge-' + e.index + '-' + suffix;
    head.appendChild(el('span', 'update-title', nodeName(e.from) + ' \u2192 ' + nodeName(e.to)));
    head.appendChild(chip(e));
    head.addEventListener('click', function () { showEdge(e.index); });
    li.appendChild(head);
    li.appendChild(el('p', 'direction', e.sentence));
    var dl = el('dl', 'probs');
    field(dl, 'P(e|h)', e.p_e_given_h);
    field(dl, 'P(e|not h)', e.p_e_given_not_h);
    li.appendChild(dl);
    li.appendChild(el('p', 'rationale', e.rationale || '(no rationale recorded)'));
    li.appendChild(anchors(e.anchors));
    if (!e.canonical) { li.appendChild(el('p', 'warn', e.grade_note)); }
    return li;
  }

  function open(title, sourceEl) {
    while (body.firstChild) { body.removeChild(body.firstChild); }
    linkCount = 0;
    var h = el('h2', null, title);
    h.id = 'detail-title';
    body.appendChild(h);
    if (selected) { selected.classList.remove('selected'); }
    selected = sourceEl || null;
    if (selected) { selected.classList.add('selected'); }
    detail.hidden = false;
    return body;
  }

  function showNode(i) {
    var n = data.nodes[i];
    var b = open(n.name, document.getElementById(n.id));
    b.appendChild(el('p', 'meta', n.meta));
    if (n.disconnected) {
      b.appendChild(el('p', 'warn', 'not connected to worth: no infer path leads from this criterion to worth, so it cannot move the posterior (GAIA507)'));
    }
    b.appendChild(el('h3', null, 'Statement'));
    b.appendChild(el('p', 'statement', n.statement || '(empty statement)'));
    var dl = el('dl', 'probs');
    field(dl, 'posterior', n.posterior || 'not computed', n.posterior ? 'num' : 'none');
    if (n.prior) { field(dl, 'prior', n.prior); }
    b.appendChild(dl);
    (n.observations || []).forEach(function (o) {
      b.appendChild(el('h3', null, 'Observation'));
      b.appendChild(el('p', 'rationale', o.rationale || '(no rationale recorded)'));
      b.appendChild(anchors(o.anchors));
    });
    list(b, 'Evidence updating this claim', n['in'], 'in');
    list(b, 'This claim as evidence', n.out, 'out');
    document.getElementById('detail-close').focus();
  }

  function list(b, title, idx, suffix) {
    if (!idx || idx.length === 0) { return; }
    b.appendChild(el('h3', null, title));
    var ul = el('ul', 'updates');
    idx.forEach(function (k) { ul.appendChild(update(data.edges[k], suffix)); });
    b.appendChild(ul);
  }

  function showEdge(k) {
    var e = data.edges[k];
    var b = open(nodeName(e.from) + ' \u2192 ' + nodeName(e.to), document.getElementById(e.id));
    var p = el('p', 'meta');
    p.appendChild(chip(e));
    p.appendChild(el('span', null, ' infer ' + (e.strategy || '(no strategy id)')));
    b.appendChild(p);
    b.appendChild(el('p', 'direction', e.sentence));
    var dl = el('dl', 'probs');
    field(dl, 'P(e|h)', e.p_e_given_h);
    field(dl, 'P(e|not h)', e.p_e_given_not_h);
    field(dl, 'likelihood ratio', e.ratio);
    field(dl, 'posterior of ' + nodeName(e.to), data.nodes[e.to].posterior || 'not computed', data.nodes[e.to].posterior ? 'num' : 'none');
    field(dl, 'posterior of ' + nodeName(e.from), data.nodes[e.from].posterior || 'not computed', data.nodes[e.from].posterior ? 'num' : 'none');
    b.appendChild(dl);
    if (!e.canonical) { b.appendChild(el('p', 'warn', e.grade_note)); }
    b.appendChild(el('h3', null, 'Rationale'));
    b.appendChild(el('p', 'rationale', e.rationale || '(no rationale recorded)'));
    b.appendChild(anchors(e.anchors));
    var nav = el('p', 'nav');
    [['from', e.from], ['to', e.to]].forEach(function (pair) {
      var btn = el('button', 'open-card', (pair[0] === 'from' ? 'evidence: ' : 'claim: ') + nodeName(pair[1]));
      btn.type = 'button';
      btn.id = 'detail-open-' + pair[0];
      btn.addEventListener('click', function () { showNode(pair[1]); });
      nav.appendChild(btn);
    });
    b.appendChild(nav);
    document.getElementById('detail-close').focus();
  }

  function activate(elm, fn) {
    elm.addEventListener('click', fn);
    elm.addEventListener('keydown', function (ev) {
      if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); fn(); }
    });
  }

  function highlight(k, on) {
    var e = data.edges[k];
    document.getElementById(e.id).classList.toggle('hl', on);
    document.getElementById(data.nodes[e.from].id).classList.toggle('hl-end', on);
    document.getElementById(data.nodes[e.to].id).classList.toggle('hl-end', on);
  }

  data.nodes.forEach(function (n, i) {
    var card = document.getElementById(n.id);
    activate(card, function () { showNode(i); });
    var touching = (n['in'] || []).concat(n.out || []);
    card.addEventListener('mouseenter', function () {
      touching.forEach(function (k) { document.getElementById(data.edges[k].id).classList.add('hl'); });
    });
    card.addEventListener('mouseleave', function () {
      touching.forEach(function (k) { document.getElementById(data.edges[k].id).classList.remove('hl'); });
    });
  });

  data.edges.forEach(function (e, k) {
    var g = document.getElementById(e.id);
    activate(g, function () { showEdge(k); });
    g.addEventListener('mouseenter', function () { highlight(k, true); });
    g.addEventListener('mouseleave', function () { highlight(k, false); });
    g.addEventListener('focus', function () { highlight(k, true); });
    g.addEventListener('blur', function () { highlight(k, false); });
  });

  function close() {
    detail.hidden = true;
    if (selected) { selected.classList.remove('selected'); selected.focus(); selected = null; }
  }
  document.getElementById('detail-close').addEventListener('click', close);
  document.addEventListener('keydown', function (ev) {
    if (ev.key === 'Escape' && !detail.hidden) { close(); }
  });

  var toggle = document.getElementById('legend-toggle');
  var legend = document.getElementById('legend-body');
  toggle.addEventListener('click', function () {
    var show = legend.hidden;
    legend.hidden = !show;
    toggle.setAttribute('aria-expanded', show ? 'true' : 'false');
  });
  document.documentElement.classList.add('js');
}());
