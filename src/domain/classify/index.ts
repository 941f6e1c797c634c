export {
  classifyTitle,
  classifyTitleUncached,
  createTitleClassifier,
  DEFAULT_TITLE_CACHE_SIZE,
  type TitleClassifier,
} from './classify-title.js';
export { JOB_FUNCTION_VALUES, type JobFunction, SENIORITY_VALUES, type Seniority, type TitleClass } from './types.js';
