import { AppError } from '../../src/domain/errors/index.js';

/** The AppError thrown by `fn`; fails the test when nothing or something else is thrown. */
export function caught(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error('expected an AppError, nothing was thrown');
}
