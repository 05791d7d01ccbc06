/**
 * Node flags the API and the worker run with (`npm start`, `npm run worker`, the image's
 * NODE_OPTIONS, the benchmarks' processes). A young generation of 64 MB semi-spaces instead
 * of V8's default: a turn's short-lived objects (stream chunks, events, MongoDB replies) then
 * die young instead of being promoted and collected again with the old generation. One lone
 * turn: 1.45–1.75 s of CPU in the API and the worker → 1.0–1.3 s (bench:turn).
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=64'] as const;
