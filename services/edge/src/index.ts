// What `npm start` and the drills run in-process: the proxy and its metrics listener.
export {
  createEdge,
  createEdgeMetricsServer,
  forwardedHeaders,
  upstreamFor,
  type Edge,
  type EdgeOptions,
  type EdgeUpstream,
} from './edge';
export { EdgeConfigError, loadEdgeConfig, type EdgeConfig } from './config';
