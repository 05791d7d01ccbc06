import mongoose from 'mongoose';

// Mongoose keeps each query's call stack as text, to show where a query ran twice; formatting
// it on every query (through the source maps tsx enables) was about 2 % of the worker's CPU
// under 50 concurrent turns (bench:turn --profile). The error itself is still raised.
mongoose.set('skipOriginalStackTraces', true);

/**
 * Opens a dedicated mongoose connection. A connection (not the global default) lets tests
 * and benchmarks use their own database on the same server.
 */
export async function connectMongo(uri: string, dbName?: string): Promise<mongoose.Connection> {
  const conn = mongoose.createConnection(uri, {
    dbName,
    serverSelectionTimeoutMS: 5000,
    // FerretDB and MongoDB both accept these; no transactions or change streams are used.
    autoIndex: true,
  });
  await conn.asPromise();
  return conn;
}
