import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { jsonTextOf } from '../../common/http/prepared-json';
import type { RequestContext } from '../../common/http/request-context';
import { strongEtagOf } from '../../common/http/response-cache/cached-answer';
import { matchesIfMatch, unmodifiedSince } from '../../common/http/write-conditions';
import { ChangeHeads } from './change-heads';

export interface ConditionalTarget {
  resource: string;
  id: number;
  /** The record's own modification time, when it keeps one (posts). */
  modifiedUtc?: string | null;
  /** The record as the caller's plain GET answers it: its strong ETag is what `If-Match` names. */
  representation: () => Promise<object>;
}

/**
 * Lost-update protection: a write with `If-Match` goes ahead only when the record is still as the client
 * read it (412 `rest_precondition_failed` otherwise), one with `If-Unmodified-Since` only when it has not
 * changed since. Called inside the write's transaction after the record's row was locked, so no other
 * write can slip in between the check and this one.
 */
@Injectable()
export class ConditionalWrites {
  constructor(private readonly heads: ChangeHeads) {}

  async assert(ctx: RequestContext, target: ConditionalTarget): Promise<void> {
    const conditions = ctx.conditions;
    if (!conditions) return;
    if (conditions.ifMatch !== null) {
      if (conditions.ifMatch === '*') return;
      const current = strongEtagOf(jsonTextOf(await target.representation()));
      if (!matchesIfMatch(conditions, current)) throw new DomainError('precondition_failed');
      return;
    }
    const modified = (await this.heads.changedUtc(target.resource, target.id)) ?? target.modifiedUtc ?? null;
    if (!unmodifiedSince(conditions, modified)) throw new DomainError('precondition_failed');
  }
}
