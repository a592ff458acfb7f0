/** Event costs (behaviour.md §5): the client's free text, read into a currency and sorted values. */

export type CurrencyPosition = 'prefix' | 'postfix';

export interface Currency {
  symbol: string;
  code: string;
  position: CurrencyPosition;
}

export interface CostDetails {
  currency_symbol: string;
  currency_code: string;
  currency_position: CurrencyPosition;
  values: string[];
}

const CODES_BY_SYMBOL: Record<string, string> = {
  $: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
  '₩': 'KRW',
  '₽': 'RUB',
  '₺': 'TRY',
  '₪': 'ILS',
  '฿': 'THB',
  '₫': 'VND',
  '₴': 'UAH',
  '₱': 'PHP',
  R$: 'BRL',
  CHF: 'CHF',
};

const FREE = /\bfree\b|\bgratis\b|\bkostenlos\b/i;
const NUMBER = /\d+(?:[.,]\d{1,2})?(?!\d)/g;

/** The currency written in a cost (`€15`, `15 €`, `CHF 20`), else the defaults. */
export function currencyOf(cost: string, defaults: Currency): Currency {
  const match = /(R\$|CHF|\p{Sc})/u.exec(cost);
  if (!match) return defaults;
  const symbol = match[1];
  const firstDigit = cost.search(/\d/);
  const position: CurrencyPosition = firstDigit !== -1 && match.index > firstDigit ? 'postfix' : 'prefix';
  return { symbol, code: CODES_BY_SYMBOL[symbol] ?? defaults.code, position };
}

/**
 * The numeric values of a cost, ascending, as written (`"Free – 30"` → `["0", "30"]`; `"25.50"` stays
 * `"25.50"`, as the reference shows it), each value once.
 */
export function costValues(cost: string): string[] {
  const byValue = new Map<number, string>();
  for (const text of cost.match(NUMBER) ?? []) {
    const written = text.replace(',', '.');
    if (!byValue.has(Number(written))) byValue.set(Number(written), written);
  }
  if (FREE.test(cost) && !byValue.has(0)) byValue.set(0, '0');
  return [...byValue.entries()].sort(([a], [b]) => a - b).map(([, written]) => written);
}

/**
 * The cost as shown: `"$23"`, `"$10 – $20"`, `"Free – 30$"` (EN DASH; 0 is always "Free"), or the text itself
 * when it holds no number, `""` when empty.
 */
export function formatCost(cost: string, currency: Currency): string {
  const values = costValues(cost);
  if (values.length === 0) return cost.trim();
  const money = (value: string): string => {
    // As the reference: a cost of 0 is shown as "Free", whether or not the word was written.
    if (Number(value) === 0) return 'Free';
    return currency.position === 'prefix' ? `${currency.symbol}${value}` : `${value}${currency.symbol}`;
  };
  const low = values[0];
  const high = values[values.length - 1];
  return low === high ? money(low) : `${money(low)} – ${money(high)}`;
}

export function costDetails(cost: string, currency: Currency): CostDetails {
  return {
    currency_symbol: currency.symbol,
    currency_code: currency.code,
    currency_position: currency.position,
    values: costValues(cost),
  };
}
