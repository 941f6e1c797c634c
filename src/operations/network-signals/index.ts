export { ALERT_TICK_MS, alertScheduler, tickAlerts } from './alert-runs.js';
export { createAlert, deleteAlert, getAlert, listAlerts, pollAlert, updateAlert } from './alerts.js';
export { collectJobKinds, runCollect } from './collect-run.js';
export { collectSignals } from './collect-signals.js';
export { getCollect } from './get-collect.js';
export { listSignals } from './list-signals.js';
