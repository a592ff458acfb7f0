import { describe, expect, it } from '@jest/globals';
import { BadRequestException, HttpException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import pino from 'pino';
import { QueryFailedError } from 'typeorm';
import { RequestValidationError } from '../validation/request-validation.error';
import { reason } from '../validation/validation-messages';
import { DomainError } from './domain-error';
import { ERROR_SPECS } from './error-specs';
import { RestExceptionFilter } from './rest-exception.filter';

const filter = new RestExceptionFilter(pino({ level: 'silent' }));

describe('RestExceptionFilter.toBody', () => {
  it('renders a domain error with its status, code and request id', () => {
    const body = filter.toBody(new DomainError('term_exists', { data: { term_id: 4 } }), 'en', 'r1');
    expect(body).toEqual({
      code: 'term_exists',
      message: expect.stringContaining('already exists'),
      data: { status: 400, term_id: 4, request_id: 'r1' },
    });
  });

  it('builds per-type codes from the noun and words them with the label', () => {
    const error = new DomainError('post_in_trash', { noun: 'venue', args: { label: { en: 'venue', de: 'Ort' } } });
    const body = filter.toBody(error, 'de', 'r2');
    expect(body.code).toBe('venue-is-in-trash');
    expect(body.data.status).toBe(410);
    expect(body.message).toContain('Ort');
  });

  it('maps framework exceptions to the API codes', () => {
    expect(filter.toBody(new NotFoundException(), 'en', '').code).toBe('rest_no_route');
    expect(filter.toBody(new PayloadTooLargeException(), 'en', '').code).toBe('rest_payload_too_large');
    const parse = new BadRequestException('bad', { cause: { type: 'entity.parse.failed' } });
    expect(filter.toBody(parse, 'en', '').code).toBe('rest_invalid_json');
    expect(filter.toBody(new HttpException('x', 429), 'en', '').data.status).toBe(429);
  });

  it('turns a unique violation into 409 and anything unknown into a generic 500', () => {
    const dup = new QueryFailedError(
      'INSERT',
      [],
      Object.assign(new Error('dup'), { code: 'ER_DUP_ENTRY', errno: 1062 }),
    );
    expect(filter.toBody(dup, 'en', '').data.status).toBe(409);
    const crash = filter.toBody(new Error('secret internals at line 3'), 'en', 'r3');
    expect(crash).toEqual({
      code: 'rest_internal_error',
      message: expect.any(String),
      data: { status: 500, request_id: 'r3' },
    });
    expect(crash.message).not.toContain('secret');
  });

  it('renders missing parameters before invalid ones', () => {
    const error = new RequestValidationError([
      { name: 'title', reasons: [reason('required')], missing: true },
      { name: 'n', reasons: [reason('integer')], missing: false },
    ]);
    expect(filter.toBody(error, 'en', '').data).toEqual({ status: 400, params: ['title'], request_id: '' });
  });

  it('translates invalid parameter reasons', () => {
    const body = filter.toBody(RequestValidationError.of({ per_page: reason('min', 1) }), 'de', '');
    expect(body.code).toBe('rest_invalid_param');
    expect(body.data.params).toEqual({ per_page: 'muss mindestens 1 sein' });
  });
});

describe('ERROR_SPECS', () => {
  it('says each reason of a parameter once', () => {
    const error = new RequestValidationError([
      { name: 'venue', reasons: [reason('list_of_ids'), reason('list_of_ids'), reason('required')], missing: false },
    ]);
    const params = filter.toBody(error, 'en', '').data.params as Record<string, string>;
    expect(params.venue.split('; ')).toHaveLength(2);
  });

  it('uses the statuses behaviour.md fixes', () => {
    expect(ERROR_SPECS.unauthenticated).toEqual({ status: 401, code: 'rest_forbidden' });
    expect(ERROR_SPECS.forbidden).toEqual({ status: 403, code: 'rest_forbidden' });
    expect(ERROR_SPECS.post_in_trash.status).toBe(410);
  });
});
