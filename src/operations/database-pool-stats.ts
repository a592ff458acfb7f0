import type { DataSource } from 'typeorm';

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** mysql2 keeps its pool's state in fields it does not document; read them defensively. */
interface Mysql2PoolInternals {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

export function databasePoolStats(dataSource: DataSource): PoolStats {
  if (dataSource.options.type !== 'mysql') return { total: dataSource.isInitialized ? 1 : 0, idle: 0, waiting: 0 };
  const pool = (dataSource.driver as unknown as { pool?: Mysql2PoolInternals }).pool;
  return {
    total: pool?._allConnections?.length ?? 0,
    idle: pool?._freeConnections?.length ?? 0,
    waiting: pool?._connectionQueue?.length ?? 0,
  };
}
