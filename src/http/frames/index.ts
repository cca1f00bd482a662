/**
 * The frames room's door (THR-2): a thread's frame stream read from the Worker through the
 * thread's WebSocket with `?after=` replay (`FrameFeed`, which the MCP agent tools follow turns
 * with), and the same frames as Server-Sent Events for `GET /api/threads/:id/events`.
 */
export { HEARTBEAT_MS, openFrameEvents, RETRY_MS } from './event-stream.js';
export { type FeedEnd, FrameFeed, type FrameFeedOptions } from './frame-feed.js';
