export {
  createErrorLog,
  logProcessWarnings,
  processWarningMessage,
  requestContext,
  type ErrorLog,
  type ErrorLogOptions,
  type ErrorContext,
} from './error-log.ts';
export {
  describeError,
  errorLogMessage,
  parseStack,
  type ErrorDescription,
  type StackFrame,
  type SourceExcerpt,
  type DescribeOptions,
} from './describe.ts';
export {
  formatErrorLine,
  errorTime,
  isLevel,
  levelRank,
  LEVELS,
  type Level,
  type ErrorEntry,
} from './format.ts';
export {
  logStarted,
  logShutdown,
  logGracefulStop,
  logGracefulRestart,
  logIgnoredSignal,
  logChildExit,
  childExitMessage,
} from './notices.ts';
export {
  parseErrorLine,
  isRawLine,
  unescapeErrorItem,
  messageLines,
  type ErrorLogLine,
  type ParsedErrorEntry,
} from './parse.ts';
export { readErrorLogTail, passesLevel, type Tail, type TailOptions } from './tail.ts';
export { followFile, type Follower, type FollowOptions } from './follow.ts';
export { createRepeats, REPEAT_INTERVAL_MS, type Repeats, type SummaryWriter } from './repeats.ts';
export { runInRequest, currentRequest } from './request-scope.ts';
