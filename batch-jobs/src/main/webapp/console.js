'use strict';
// The operator's console: polls the admin API and renders it. Changes go with the session's CSRF token.

const POLL_MILLIS = 500;
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2'];
let session = null;

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value !== null && value !== undefined) {
      node.setAttribute(name, value);
    }
  }
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(child === null || child === undefined ? '—' : String(child)));
  }
  return node;
}

function svg(tag, attributes) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) {
    node.setAttribute(name, value);
  }
  return node;
}

function fill(tableId, rows, empty, columns) {
  const body = document.querySelector('#' + tableId + ' tbody');
  body.replaceChildren(...(rows.length === 0
    ? [el('tr', {class: 'empty'}, el('td', {colspan: columns}, empty))]
    : rows));
}

async function api(path, options) {
  const response = await fetch('api/' + path, Object.assign({credentials: 'same-origin'}, options));
  if (response.status === 401) {
    location.href = 'login.html';
    throw new Error('signed out');
  }
  const body = response.status === 204 ? null : await response.json();
  if (!response.ok) {
    throw new Error(body && body.error ? body.error : 'HTTP ' + response.status);
  }
  return body;
}

function change(path, body) {
  return api(path, {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken},
    body: body === undefined ? '' : JSON.stringify(body)})
    .then(() => poll())
    .catch(error => say(error.message, true));
}

function say(text, isError) {
  const message = document.getElementById('message');
  message.textContent = text;
  message.className = isError ? 'message error' : 'message';
  message.hidden = false;
}

function seconds(execution) {
  if (!execution.started || !execution.ended) {
    return null;
  }
  return (Date.parse(execution.ended) - Date.parse(execution.started)) / 1000;
}

function when(instant) {
  return instant ? new Date(instant).toLocaleString() : null;
}

function button(label, id, action) {
  const b = el('button', {type: 'button', id: id}, label);
  b.addEventListener('click', action);
  return b;
}

function renderViews(views, executions) {
  fill('views', views.map(v => {
    const key = v.schema + '.' + v.name;
    const last = executions.find(e => e.jobName === 'mv-refresh' && e.view && e.view.toLowerCase() === v.name.toLowerCase()
      && e.ended);
    const lastText = last ? when(last.ended) + ' · ' + seconds(last).toFixed(1) + ' s · ' + last.batchStatus.toLowerCase() : 'never';
    return el('tr', {'data-view': v.name},
      el('td', {}, key), el('td', {}, v.host), el('td', {}, v.arm),
      el('td', {}, el('span', {class: v.stale ? 'badge warn' : 'badge ok'}, v.stale ? 'stale' : 'current')),
      el('td', {class: 'number rows'}, v.row_count.toLocaleString('en')),
      el('td', {}, lastText),
      el('td', {class: 'schedule'}, v.refresh_schedule ? v.refresh_schedule + ' · next ' + when(v.next_refresh) : 'none'),
      session.admin ? el('td', {}, button('Refresh now', 'refresh-' + v.name, () => change('jobs/mv-refresh', {view: v.name})))
        : el('td', {class: 'admin-only'}, ''));
  }), 'No materialized view yet.', 8);
}

// mv-rehydrate has no chunks: its progress is the views the last open left pending that are refilled now.
function rehydrateProgress(report) {
  const views = report.filter(r => r.action === 'pending' || (r.action === 'refilled' && r.reason
    && r.reason.endsWith('refilled by rehydrate materialized view')));
  const done = views.filter(r => r.action === 'refilled').length;
  return views.length === 0 ? null : {position: done, expected: views.length, percent: 100 * done / views.length, rowsPerSecond: 0};
}

function renderRunning(executions, report) {
  const running = executions.filter(e => e.batchStatus === 'STARTING' || e.batchStatus === 'STARTED');
  const box = document.getElementById('running');
  if (running.length === 0) {
    box.replaceChildren(el('p', {class: 'empty'}, 'No job is running.'));
    return;
  }
  box.replaceChildren(...running.map(e => {
    // The bar shows what the chunks have done; a percent appears once the first chunk has committed.
    const p = e.jobName === 'mv-rehydrate' ? rehydrateProgress(report) : e.progress;
    const unit = e.jobName === 'mv-rehydrate' ? ' views' : ' rows';
    const percent = p && p.expected > 0 ? p.percent : 0;
    const eta = p && p.rowsPerSecond > 0 && p.expected > 0 ? Math.round((p.expected - p.position) / p.rowsPerSecond) + ' s left' : '';
    return el('div', {class: 'run', 'data-execution': e.executionId, 'data-view': e.view},
      el('div', {class: 'run-title'}, e.jobName + (e.view ? ' of ' + e.view : '') + ' (#' + e.executionId + ')'),
      el('div', {class: 'bar'}, el('div', {class: 'fill', style: 'width: ' + percent + '%'})),
      el('div', {class: 'run-numbers'},
        el('span', {class: 'percent', 'data-percent': percent}, percent.toFixed(1) + ' %'),
        el('span', {}, p ? p.position.toLocaleString('en') + ' of ' + Math.max(p.expected, 0).toLocaleString('en') + unit : 'starting'),
        el('span', {}, p && p.rowsPerSecond > 0 ? p.rowsPerSecond.toLocaleString('en') + ' rows/s' : ''),
        el('span', {}, eta)));
  }));
}

function renderJobs(executions) {
  fill('jobs', executions.map(e => {
    const actions = [];
    if (session.admin && (e.batchStatus === 'STARTED' || e.batchStatus === 'STARTING')) {
      actions.push(button('Stop', 'stop-' + e.executionId, () => change('jobs/' + e.executionId + '/stop')));
    }
    if (session.admin && (e.batchStatus === 'FAILED' || e.batchStatus === 'STOPPED')) {
      actions.push(button('Restart', 'restart-' + e.executionId, () => change('jobs/' + e.executionId + '/restart')));
    }
    const took = seconds(e);
    const percent = e.progress && e.progress.expected >= 0 ? e.progress.percent : null;
    return el('tr', {'data-execution': e.executionId, 'data-view': e.view},
      el('td', {class: 'number'}, e.executionId), el('td', {}, e.jobName), el('td', {}, e.view),
      el('td', {}, el('span', {class: 'badge status ' + e.batchStatus.toLowerCase()}, e.batchStatus.toLowerCase())),
      el('td', {class: 'number percent', 'data-percent': percent}, percent === null ? null : percent.toFixed(1) + ' %'),
      el('td', {class: 'exit'}, e.exitStatus), el('td', {}, when(e.started)),
      el('td', {class: 'number'}, took === null ? null : took.toFixed(1)),
      el('td', {}, ...actions));
  }), 'No job has run yet.', 9);
}

function renderChart(executions) {
  const chart = document.getElementById('chart');
  const done = executions.filter(e => e.jobName === 'mv-refresh' && e.batchStatus === 'COMPLETED' && e.view).reverse();
  const views = [...new Set(done.map(e => e.view))];
  const width = 480, height = 200, left = 40, bottom = 20;
  const most = Math.max(1, ...done.map(seconds));
  const nodes = [svg('line', {x1: left, y1: height - bottom, x2: width, y2: height - bottom, class: 'axis'}),
    svg('line', {x1: left, y1: 0, x2: left, y2: height - bottom, class: 'axis'})];
  for (const tick of [0, most / 2, most]) {
    const label = svg('text', {x: left - 4, y: height - bottom - tick / most * (height - bottom - 10) + 4, class: 'tick'});
    label.textContent = tick.toFixed(1) + 's';
    nodes.push(label);
  }
  views.forEach((view, i) => {
    const color = COLORS[i % COLORS.length];
    const points = done.map((e, n) => ({e, n})).filter(p => p.e.view === view).map(p => ({
      x: left + 10 + p.n * (width - left - 20) / Math.max(1, done.length - 1),
      y: height - bottom - seconds(p.e) / most * (height - bottom - 10), e: p.e}));
    if (points.length > 1) {
      nodes.push(svg('polyline', {points: points.map(p => p.x + ',' + p.y).join(' '), stroke: color, fill: 'none'}));
    }
    for (const p of points) {
      const dot = svg('circle', {cx: p.x, cy: p.y, r: 4, fill: color, 'data-view': view, 'data-execution': p.e.executionId});
      const title = svg('title', {});
      title.textContent = view + ': ' + seconds(p.e).toFixed(2) + ' s, ' + when(p.e.ended);
      dot.append(title);
      nodes.push(dot);
    }
  });
  chart.replaceChildren(...nodes);
  document.getElementById('legend').replaceChildren(...(views.length === 0 ? [el('p', {class: 'empty'}, 'No refresh has completed yet.')]
    : views.map((v, i) => el('span', {class: 'legend', style: 'border-color: ' + COLORS[i % COLORS.length]}, v))));
}

function renderStatus(status) {
  const database = document.getElementById('database');
  database.textContent = status.state.toLowerCase().replaceAll('_', ' ');
  database.className = 'badge ' + (status.state === 'OPEN' ? 'ok' : 'warn');
  database.title = status.detail;
  fill('in-doubt', status.inDoubt.map(b => el('tr', {}, el('td', {}, b.xid), el('td', {}, b.state), el('td', {}, b.touched))),
    'None.', 3);
  fill('locks', status.locks.map(l => el('tr', {class: l.waiting ? 'waiting' : ''},
    el('td', {}, l.transaction + (l.waiting ? ' (waiting)' : '')), el('td', {}, l.object), el('td', {}, l.mode),
    el('td', {}, when(l.since)))), 'No lock is held.', 4);
  fill('rehydrate', status.rehydrate.map(r => el('tr', {}, el('td', {}, r.schema + '.' + r.name + (r.index ? ' (' + r.index + ')' : '')),
    el('td', {}, r.action), el('td', {}, r.reason))), 'Nothing to rehydrate at the last open.', 3);
}

async function poll() {
  try {
    const [status, recent] = await Promise.all([api('status'), api('jobs/recent?limit=30')]);
    renderStatus(status);
    renderViews(status.views, recent.executions);
    renderRunning(recent.executions, status.rehydrate);
    renderJobs(recent.executions);
    renderChart(recent.executions);
  } catch (error) {
    say('The console could not read the server: ' + error.message, true);
  }
}

async function start() {
  session = await api('session');
  if (session.user === null) {
    location.href = 'login.html';
    return;
  }
  document.getElementById('user').textContent = session.user + (session.admin ? ' (administrator)' : ' (monitor)');
  document.body.classList.toggle('monitor', !session.admin);
  await poll();
  setInterval(poll, POLL_MILLIS);
}

start();
