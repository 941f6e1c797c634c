/**
 * The upload page's script, inline (no CDN, no build step): it calls the page's own form endpoints with the
 * link's `expires` and `sig`, draws the preview, the mapping (guesses preselected), the estimate and the run's
 * progress. Text from the file is only ever set with textContent.
 */
export const PAGE_SCRIPT = String.raw`
(function () {
  var cfg = JSON.parse(document.getElementById('cfg').textContent);
  var base = location.pathname.replace(/\/+$/, '');
  var q = location.search;
  var $ = function (id) { return document.getElementById(id); };
  var state = null;

  function api(path, opts) {
    return fetch(base + path + q, opts).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (body) {
        if (!res.ok || body.ok === false) {
          var err = (body && body.error) || {};
          throw new Error((err.message || ('HTTP ' + res.status)) + (err.hint ? ' ' + err.hint : ''));
        }
        return body;
      });
    });
  }
  function showError(msg) { var e = $('error'); e.textContent = msg; e.hidden = !msg; }
  function busy(on, msg) { $('busy').hidden = !on; $('busy').textContent = msg || 'Working…'; }

  function sendFile(file) {
    showError('');
    if (!file) return;
    if (file.size > cfg.maxBytes) { showError('The file is ' + (file.size / 1048576).toFixed(1) + ' MB; at most 15 MB is read. Split the sheet into smaller files.'); return; }
    if (file.size === 0) { showError('The file is empty.'); return; }
    busy(true, 'Reading ' + file.name + '…');
    api('/file', { method: 'POST', headers: { 'Content-Type': 'text/csv', 'X-File-Name': encodeURIComponent(file.name) }, body: file })
      .then(draw).catch(function (e) { showError(e.message); }).finally(function () { busy(false); });
  }

  $('file-input').addEventListener('change', function (ev) { sendFile(ev.target.files[0]); });
  var drop = $('drop');
  drop.addEventListener('dragover', function (ev) { ev.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', function () { drop.classList.remove('over'); });
  drop.addEventListener('drop', function (ev) { ev.preventDefault(); drop.classList.remove('over'); sendFile(ev.dataTransfer.files[0]); });
  $('url-form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    showError('');
    busy(true, 'Reading the sheet link…');
    api('/url', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ url: $('url-input').value }) })
      .then(draw).catch(function (e) { showError(e.message); }).finally(function () { busy(false); });
  });

  function mapping() {
    var m = {};
    cfg.fields.forEach(function (f) { var v = $('map-' + f.field).value; m[f.field] = v === '' ? null : v; });
    return m;
  }

  function draw(s) {
    state = s;
    if (s.run) return drawRun(s.run);
    if (!s.file) return;
    $('step-map').hidden = false;
    $('file-name').textContent = s.file.name + ' — ' + s.file.rows.toLocaleString('en-US') + ' rows (' + s.file.encoding + ')';
    var table = $('preview');
    table.textContent = '';
    var head = table.insertRow();
    s.headers.forEach(function (h) { var th = document.createElement('th'); th.textContent = h; head.appendChild(th); });
    s.preview.forEach(function (r) { var tr = table.insertRow(); r.forEach(function (c) { tr.insertCell().textContent = c; }); });
    var box = $('mapping');
    box.textContent = '';
    cfg.fields.forEach(function (f) {
      var label = document.createElement('label');
      label.textContent = f.label;
      var sel = document.createElement('select');
      sel.id = 'map-' + f.field;
      sel.name = f.field;
      var none = document.createElement('option'); none.value = ''; none.textContent = '— not mapped —'; sel.appendChild(none);
      s.headers.forEach(function (h) { var o = document.createElement('option'); o.value = h; o.textContent = h; sel.appendChild(o); });
      sel.value = s.mapping[f.field] || '';
      sel.addEventListener('change', estimate);
      label.appendChild(sel);
      box.appendChild(label);
    });
    drawEstimate(s.estimate);
  }

  function drawEstimate(e) {
    var el = $('estimate');
    $('start').disabled = !e;
    if (!e) { el.textContent = 'Map at least one column holding emails, phone numbers or profile URLs.'; return; }
    el.textContent = e.rows_that_can_match.toLocaleString('en-US') + ' of ' + e.rows.toLocaleString('en-US') +
      ' rows can match: at most ' + e.max_credits.toLocaleString('en-US') + ' contact credits (one per matched row; misses are free). ' +
      'Credits left: ' + e.credits_left.toLocaleString('en-US') + '.' +
      (e.enough_credits ? '' : ' Not enough credits for every row: the run stops charging when they run out.');
    el.dataset.canMatch = String(e.rows_that_can_match);
  }

  function estimate() {
    showError('');
    api('/estimate', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ mapping: mapping() }) })
      .then(function (b) { drawEstimate(b.estimate); })
      .catch(function (e) { drawEstimate(null); showError(e.message); });
  }

  $('start').addEventListener('click', function () {
    showError('');
    $('start').disabled = true;
    api('/start', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ mapping: mapping() }) })
      .then(function (b) { drawRun(b.run); })
      .catch(function (e) { $('start').disabled = false; showError(e.message); });
  });

  function drawRun(run) {
    $('step-upload').hidden = true;
    $('step-map').hidden = true;
    $('step-run').hidden = false;
    var pct = run.rows ? Math.round((100 * run.processed_rows) / run.rows) : 100;
    $('progress').value = pct;
    $('run-status').textContent = run.status;
    $('run-counts').textContent = run.processed_rows.toLocaleString('en-US') + ' of ' + run.rows.toLocaleString('en-US') +
      ' rows processed, ' + run.matched_rows.toLocaleString('en-US') + ' matched' +
      (run.status === 'completed' ? ', ' + run.credits_charged.toLocaleString('en-US') + ' contact credits charged.' : '.') +
      (run.truncated ? ' Stopped charging: the credits ran out.' : '') + (run.error ? ' ' + run.error : '');
    if (run.status === 'completed') $('run-done').hidden = false;
    if (run.result_url) $('run-download').href = run.result_url;
    if (run.status === 'queued' || run.status === 'running') setTimeout(poll, 700);
  }
  function poll() { api('/run', {}).then(function (b) { if (b.run) drawRun(b.run); }).catch(function (e) { showError(e.message); setTimeout(poll, 3000); }); }

  api('/state', {}).then(draw).catch(function (e) { showError(e.message); });
})();
`;
