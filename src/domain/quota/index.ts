export { asSettled, type PendingCharge } from './as-settled.js';
export { type Binding, bindingWindow, type PacedWindow, timeToRunOut } from './binding.js';
export { type Budget, type BudgetScope, budgetsFor, USAGE_CATEGORIES, type WindowKind } from './budgets.js';
export { type CreditsView, creditsView, type WindowView } from './credits-view.js';
export { contactExhausted, premiumExhausted, type Shortfall } from './exhausted.js';
export { type Quota, quotaBlock } from './quota-block.js';
export { type CounterUsage, creditSnapshot, snapshotBudgets } from './snapshot.js';
export { remainingOf } from './window-usage.js';
export { billingMonthWindow, type CreditWindow, dayWindow, FAR_FUTURE } from './windows.js';
