import { describe, expect, it } from '@jest/globals';
import { costDetails, costValues, currencyOf, formatCost, type Currency } from './event-cost';

const USD: Currency = { symbol: '$', code: 'USD', position: 'prefix' };

describe('event cost', () => {
  it.each([
    ['23', '$23', ['23']],
    ['$23', '$23', ['23']],
    ['10 - 20', '$10 – $20', ['10', '20']],
    ['20, 10, 15', '$10 – $20', ['10', '15', '20']],
    ['Free', 'Free', ['0']],
    ['free - 30', 'Free – $30', ['0', '30']],
    ['12.50', '$12.50', ['12.50']],
    ['7,5 - 7.50', '$7.5', ['7.5']],
    ['Donation', 'Donation', []],
    ['', '', []],
    ['0', 'Free', ['0']],
    ['0$, 20$, 30$', 'Free – 30$', ['0', '20', '30']],
    ['0 - 15', 'Free – $15', ['0', '15']],
  ])('%p → %p with values %p', (cost, formatted, values) => {
    const currency = currencyOf(cost, USD);
    expect(formatCost(cost, currency)).toBe(formatted);
    expect(costValues(cost)).toEqual(values);
  });

  it('reads the currency and its position from the text', () => {
    expect(currencyOf('15 €', USD)).toEqual({ symbol: '€', code: 'EUR', position: 'postfix' });
    expect(currencyOf('£8', USD)).toEqual({ symbol: '£', code: 'GBP', position: 'prefix' });
    expect(currencyOf('Free – 30$', USD)).toEqual({ symbol: '$', code: 'USD', position: 'postfix' });
    expect(formatCost('Free – 30$', currencyOf('Free – 30$', USD))).toBe('Free – 30$');
  });

  it('gives cost details with ascending numeric strings', () => {
    expect(costDetails('€5-€15', currencyOf('€5-€15', USD))).toEqual({
      currency_symbol: '€',
      currency_code: 'EUR',
      currency_position: 'prefix',
      values: ['5', '15'],
    });
  });
});
