export { FAR_FUTURE, billingMonthWindow, dayWindow, type CreditWindow } from './windows.js';
export { bindingWindow, timeToRunOut, type Binding, type PacedWindow } from './binding.js';
export { USAGE_CATEGORIES, budgetsFor, type Budget, type BudgetScope, type WindowKind } from './budgets.js';
export { remainingOf } from './window-usage.js';
export { quotaBlock, type Quota } from './quota-block.js';
export { creditsView, type CreditsView, type WindowView } from './credits-view.js';
export { contactExhausted, premiumExhausted, type Shortfall } from './exhausted.js';
