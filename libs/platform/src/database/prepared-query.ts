// Statements live in libs/domain; platform keeps its name for the runner they use.
export { queryPrepared } from '@sprout/domain';
