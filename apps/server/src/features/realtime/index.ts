export { parseRealtimeEnv, type RealtimeConfig } from './config.js';
export {
  recordingHandlers,
  unavailableHandler,
  type RealtimeAuth,
  type RealtimeRecording,
  type RealtimeResult,
  type RecordingHandler,
  type RecordingHandlers,
} from './handlers.js';
export { registerRealtimeRoutes, type RealtimeOptions } from './routes.js';
