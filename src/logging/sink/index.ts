export { createLogSink, type LogSink, type SinkOptions } from './sink.ts';
