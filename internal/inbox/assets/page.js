// askuser's page script: live updates from the event stream, answers sent
// without leaving the page (so other cards keep what was typed), and
// "Other" ticked when its text is typed. The pages work without it: forms
// post and reload, and a reload shows what changed.
'use strict';
(function () {
  const main = document.getElementById('main');
  const live = document.getElementById('live');
  if (!main) return;

  function say(text) { if (live) live.textContent = text; }

  function parse(html) {
    const t = document.createElement('template');
    t.innerHTML = html; // our own server's html/template output
    return Array.from(t.content.children);
  }

  function openCount() { return main.querySelectorAll('.card[data-state="open"]').length; }

  function retitle() {
    const n = openCount();
    document.title = document.title.replace(/^\(\d+\) /, '');
    if (n > 0) document.title = '(' + n + ') ' + document.title;
  }

  // merge puts a new body in place of the old one, block by block. A block
  // whose data-rev (or, without one, whose markup) is unchanged is kept as
  // it is, with what the person typed and where the focus was.
  function merge(html) {
    const before = openCount();
    const active = document.activeElement;
    const next = parse(html).map(function (el) {
      const old = el.id ? document.getElementById(el.id) : null;
      if (!old || old.parentNode !== main) return el;
      const same = el.dataset.rev !== undefined ? old.dataset.rev === el.dataset.rev : old.outerHTML === el.outerHTML;
      return same ? old : el;
    });
    const keep = new Set(next);
    let lostFocus = null;
    for (const child of Array.from(main.children)) {
      if (!keep.has(child)) {
        if (child.contains(active)) lostFocus = child.id;
        child.remove();
      }
    }
    let cursor = main.firstElementChild;
    for (const el of next) {
      if (el === cursor) { cursor = cursor.nextElementSibling; continue; }
      main.insertBefore(el, cursor);
    }
    if (lostFocus) {
      const again = document.getElementById(lostFocus);
      if (again) again.focus();
    }
    // Counted, so a test can wait for a live update instead of guessing.
    main.dataset.merges = String((Number(main.dataset.merges) || 0) + 1);
    const after = openCount();
    if (after > before) say(after - before === 1 ? 'A new question is waiting.' : (after - before) + ' new questions are waiting.');
    retitle();
    tick();
  }

  let busy = false;
  let again = false;
  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const res = await fetch(main.dataset.fragment, { headers: { 'X-Askuser-Fetch': '1' }, credentials: 'same-origin' });
      if (res.ok) merge(await res.text());
    } catch (e) {
      // The stream reconnects and asks again.
    }
    busy = false;
    if (again) { again = false; refresh(); }
  }

  function banner(text) {
    let b = document.getElementById('stopped');
    if (!b) {
      b = document.createElement('p');
      b.id = 'stopped';
      b.className = 'banner';
      b.setAttribute('role', 'alert');
      main.parentNode.insertBefore(b, main);
    }
    b.textContent = text;
    for (const button of main.querySelectorAll('form.set button')) button.disabled = true;
  }

  if (main.dataset.events && window.EventSource) {
    const events = new EventSource(main.dataset.events);
    events.addEventListener('changed', refresh);
    events.addEventListener('bye', function () {
      events.close();
      banner('askuser has stopped: this page no longer updates, and answers can no longer be sent.');
    });
    events.addEventListener('open', function () { if (live && /reconnecting/.test(live.textContent)) say(''); });
    events.addEventListener('error', function () {
      if (events.readyState === EventSource.CONNECTING) say('Connection to askuser lost; reconnecting…');
    });
  }

  document.addEventListener('input', function (e) {
    const box = e.target;
    if (!box.classList || !box.classList.contains('other-text') || box.value.trim() === '') return;
    const choice = box.closest('.opts').querySelector('.other-choice');
    if (choice && !choice.checked) choice.checked = true;
  });

  document.addEventListener('change', function (e) {
    const choice = e.target;
    if (!choice.classList || !choice.classList.contains('other-choice') || !choice.checked) return;
    const box = choice.closest('.opts').querySelector('.other-text');
    if (box) box.focus();
  });

  document.addEventListener('submit', async function (e) {
    const form = e.target;
    if (!form.classList || !form.classList.contains('set')) return;
    e.preventDefault();
    const msg = form.querySelector('.msg');
    const button = form.querySelector('button[type="submit"]');
    button.disabled = true;
    msg.textContent = 'Sending…';
    let res;
    let text;
    try {
      res = await fetch(form.action, {
        method: 'POST', body: new URLSearchParams(new FormData(form)),
        headers: { 'X-Askuser-Fetch': '1' }, credentials: 'same-origin',
      });
      text = await res.text();
    } catch (err) {
      msg.textContent = 'Could not reach askuser; is it still running?';
      button.disabled = false;
      return;
    }
    if (res.status === 200 || res.status === 409) {
      const card = form.closest('.card');
      const next = parse(text)[0];
      if (card && next) {
        card.replaceWith(next);
        next.focus();
      }
      say(res.status === 200 ? 'Answer sent.' : 'Not used: that question set was already answered.');
      retitle();
      return;
    }
    msg.textContent = text.replace(/^askuser: /, '').trim();
    button.disabled = false;
  });

  // Relative times ("3 min ago") stay true while the page is open.
  function ago(ms) {
    const min = Math.floor(ms / 60000);
    if (min < 1) return 'just now';
    if (min < 60) return min + ' min ago';
    const h = Math.floor(min / 60);
    if (h < 48) return h + ' h ' + (min % 60) + ' min ago';
    return Math.floor(h / 24) + ' days ago';
  }
  function tick() {
    for (const t of document.querySelectorAll('time[data-ago]')) {
      const at = Date.parse(t.getAttribute('datetime'));
      if (!isNaN(at)) t.textContent = (t.dataset.prefix || '') + ago(Date.now() - at);
    }
  }
  setInterval(tick, 30000);
  retitle();
})();
