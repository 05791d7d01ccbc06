import mongoose from 'mongoose';

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
