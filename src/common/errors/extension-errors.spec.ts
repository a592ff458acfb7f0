import { describe, expect, it } from '@jest/globals';
import { DomainError, errorMessage } from './domain-error';
import { defineError } from './extension-errors';

describe('errors modules define', () => {
  const key = defineError('spec_widget_missing', {
    status: 404,
    code: 'rest-widget-not-found',
    message: { en: 'No widget {id}.', de: 'Kein Widget {id}.' },
  });

  it('answer with their status, code and message in the caller language, like the service errors', () => {
    const error = new DomainError(key, { args: { id: 7 } });
    expect([error.status, error.code]).toEqual([404, 'rest-widget-not-found']);
    expect([errorMessage(error, 'en'), errorMessage(error, 'de')]).toEqual(['No widget 7.', 'Kein Widget 7.']);
  });

  it('refuses a key the service or another module has, and a status that is no error', () => {
    const spec = { status: 400, code: 'x', message: { en: 'x', de: 'x' } };
    expect(() => defineError('term_exists', spec)).toThrow(/defined twice/);
    expect(() => defineError('spec_widget_missing', spec)).toThrow(/defined twice/);
    expect(() => defineError('spec_fine', { ...spec, status: 200 })).toThrow(/4xx or 5xx/);
  });

  it('keeps the service errors as they are', () => {
    expect(errorMessage(new DomainError('term_exists'), 'en')).toBe(
      'A term with the name provided already exists with this parent.',
    );
  });
});
