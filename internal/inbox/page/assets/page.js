// askuser's page script: live updates from the event stream, answers sent
// without leaving the page (so other cards keep what was typed), "Other"
// ticked when its text is typed, and "Submit with nothing selected?"
// asked before a multi-select goes with nothing ticked. The pages work without it: forms
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
    // A tick changed: "nothing selected" is asked about again.
    const multi = choice.closest && choice.closest('fieldset[data-multi]');
    if (multi) {
      const confirmed = multi.form && multi.form.querySelector('input[type="hidden"][name="' + multi.dataset.none + '"]');
      if (confirmed) confirmed.remove();
    }
    if (!choice.classList || !choice.classList.contains('other-choice') || !choice.checked) return;
    const box = choice.closest('.opts').querySelector('.other-text');
    if (box) box.focus();
  });

  // emptyMulti are the multi-select questions of form with nothing ticked
  // and no text, whose submitting so the person has not confirmed.
  function emptyMulti(form) {
    return Array.from(form.querySelectorAll('fieldset[data-multi]')).filter(function (fs) {
      if (fs.querySelector('input[type="checkbox"]:checked')) return false;
      const text = fs.querySelector('.other-text');
      if (text && text.value.trim() !== '') return false;
      return !form.querySelector('input[type="hidden"][name="' + fs.dataset.none + '"]');
    });
  }

  function button(label, cls) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = cls;
    b.textContent = label;
    return b;
  }

  // confirmNone asks, as the terminal does, before a multi-select is
  // sent with nothing ticked: a stray Submit is not an answer.
  function confirmNone(form, empty) {
    const old = form.querySelector('.confirm-none');
    if (old) old.remove();
    const box = document.createElement('div');
    box.className = 'confirm-none';
    box.setAttribute('role', 'alertdialog');
    const text = document.createElement('p');
    text.textContent = 'Nothing is ticked for ' + empty.map(function (fs) { return '\u201c' + fs.dataset.header + '\u201d'; }).join(', ') +
      '. Submit with nothing selected?';
    const yes = button('Submit with nothing selected', 'yes');
    const no = button('Go back', 'no');
    yes.addEventListener('click', function () {
      for (const fs of empty) {
        const mark = document.createElement('input');
        mark.type = 'hidden';
        mark.name = fs.dataset.none;
        mark.value = '1';
        form.appendChild(mark);
      }
      box.remove();
      if (form.requestSubmit) form.requestSubmit(); else form.submit();
    });
    no.addEventListener('click', function () {
      box.remove();
      const first = empty[0].querySelector('input[type="checkbox"]');
      if (first) first.focus();
    });
    box.append(text, yes, no);
    form.querySelector('.actions').before(box);
    say(text.textContent);
    no.focus(); // as the terminal's y/N: no, unless said
  }

  document.addEventListener('submit', async function (e) {
    const form = e.target;
    if (!form.classList || !form.classList.contains('set')) return;
    e.preventDefault();
    const empty = emptyMulti(form);
    if (empty.length > 0) {
      confirmNone(form, empty);
      return;
    }
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
