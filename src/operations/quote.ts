import type { CreditKind } from '../domain/credits.js';

/** What a call would cost now. */
export interface Quote {
  /** Rows or items the call would deliver. */
  units: number;
  kind: CreditKind;
  /** Credits of `kind` it would charge. */
  credits: number;
  /** Credits of `kind` that can be spent now. */
  available: number;
  sufficient: boolean;
  /** When the call would be cut by the credits left: the window that cuts it, and when it resets. */
  cut?: { binding: string; resets_at: string };
}
