import { QueryFailedError, type DataSource, type QueryRunner } from 'typeorm';
import { driverErrorOf } from '../common/errors/driver-errors';
import { connectionOf, dropConnection } from './dropped-connections';

/** A request's replica connection, and the primary's it took instead once the replica was lost. */
export interface ReplicaScope {
  runner: QueryRunner | null;
  fallback: QueryRunner | null;
}

/**
 * Errors of a connection that is gone or never came: the server is down or unreachable, not the query
 * wrong. POOL_*: mysql2's PoolCluster took every replica out after repeated connection errors.
 */
const CONNECTION_LOSS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'PROTOCOL_CONNECTION_LOST',
  'ETIMEDOUT',
  'EPIPE',
  'POOL_NONEONLINE',
  'POOL_NOEXIST',
]);

function isConnectionLoss(error: unknown): boolean {
  const driverError: unknown = error instanceof QueryFailedError ? (error.driverError as unknown) : error;
  const code = driverErrorOf(error)?.code;
  if (code !== undefined && CONNECTION_LOSS.has(code)) return true;
  // mysql2 marks an error of the connection itself `fatal` (a pooled connection whose socket had just
  // closed: "Can't add new command when connection is in closed state", which has no code).
  return typeof driverError === 'object' && driverError !== null && (driverError as { fatal?: unknown }).fatal === true;
}

/** A statement given up on because its replica stopped answering (its request goes on on the primary). */
class AbandonedOnReplica extends Error {}

export interface ReplicaLossHooks {
  /** Checks the replicas now; resolves to whether reads may still go to them. */
  check: (() => Promise<boolean>) | null;
}

/**
 * Replica connections whose statements go on on the primary once the replica is lost: refused, reset, or
 * not answering (a statement that timed out while the replica check finds no replica answering, or one
 * running when that check found so, which is abandoned at once rather than left to its timeout).
 */
export class ReplicaRunners {
  /** Statements running on a replica now, each with the way to abandon it. */
  private readonly running = new Set<(error: Error) => void>();
  readonly hooks: ReplicaLossHooks = { check: null };

  constructor(private readonly dataSource: DataSource) {}

  /** Gives up every statement running on a replica: none answers (ReplicaHealth). */
  abandonAll(): void {
    for (const abandon of [...this.running]) abandon(new AbandonedOnReplica('the read replica stopped answering'));
  }

  /**
   * A replica connection for one request. The rest of its reads follow on the primary once the replica
   * was lost (its data can only be newer than what it read before).
   */
  runner(scope: ReplicaScope): QueryRunner {
    const runner = this.dataSource.createQueryRunner('slave');
    const onReplica = runner.query.bind(runner);
    const query = async (...args: Parameters<QueryRunner['query']>): Promise<unknown> => {
      if (scope.fallback) return scope.fallback.query(...args);
      try {
        return await this.abandonable(runner, onReplica(...args));
      } catch (error) {
        if (!(await this.lost(error))) throw error;
        scope.fallback ??= this.dataSource.createQueryRunner('master');
        return scope.fallback.query(...args);
      }
    };
    runner.query = query as QueryRunner['query'];
    return runner;
  }

  private async lost(error: unknown): Promise<boolean> {
    if (error instanceof AbandonedOnReplica) return true;
    if (isConnectionLoss(error)) {
      void this.hooks.check?.();
      return true;
    }
    // A statement past DB_QUERY_TIMEOUT_SECONDS: the replica froze, or the statement is slow everywhere
    // (then running it again on the primary would only double the cost).
    if (driverErrorOf(error)?.code === 'PROTOCOL_SEQUENCE_TIMEOUT') {
      return this.hooks.check !== null && !(await this.hooks.check());
    }
    return false;
  }

  private async abandonable<T>(runner: QueryRunner, statement: Promise<T>): Promise<T> {
    let abandon: (error: Error) => void = () => undefined;
    const abandoned = new Promise<never>((_, reject) => (abandon = reject));
    this.running.add(abandon);
    try {
      return await Promise.race([statement, abandoned]);
    } catch (error) {
      if (error instanceof AbandonedOnReplica) {
        statement.catch(() => undefined);
        // Out of the pool: the frozen statement is still queued on it.
        dropConnection(connectionOf(runner));
      }
      throw error;
    } finally {
      this.running.delete(abandon);
    }
  }
}
