/**
 * An import's ignore rules (`--ignore`, a subscription's `ignore`): `title:<pattern>` matches a record's
 * title, any other rule matches its id in the source as the run's report names it (`event:52`, `venue:*`,
 * an iCalendar UID such as `*@holidays.example`). `*` stands for any run of characters, `?` for one; case is
 * ignored. Matching is a plain scan, never a regular expression: a rule is no way to stall a run.
 */
export interface IgnoreRule {
  readonly text: string;
  readonly on: 'id' | 'title';
  readonly pattern: string;
}

/** Longest rule accepted; also the longest title compared (a longer title is compared by its start). */
export const MAX_RULE_LENGTH = 200;
const MAX_SUBJECT_LENGTH = 1000;

export function parseIgnoreRule(text: string): IgnoreRule | null {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.length > MAX_RULE_LENGTH || [...trimmed].some((c) => c.charCodeAt(0) < 0x20))
    return null;
  const title = /^title:/i.test(trimmed);
  const pattern = (title ? trimmed.slice('title:'.length) : trimmed).toLowerCase();
  return pattern === '' ? null : { text: trimmed, on: title ? 'title' : 'id', pattern };
}

/** The first rule a record matches, or undefined. */
export function matchingRule(
  rules: readonly IgnoreRule[],
  record: { id: string; title?: string },
): IgnoreRule | undefined {
  return rules.find((rule) => {
    const subject = rule.on === 'id' ? record.id : (record.title ?? '');
    return wildcardMatch(rule.pattern, subject.slice(0, MAX_SUBJECT_LENGTH).toLowerCase());
  });
}

/**
 * Whether `text` matches `pattern` (`*`, `?`): the greedy scan that goes back only to the last `*`, at most
 * pattern × text steps.
 */
export function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (star !== -1) {
      p = star + 1;
      t = ++resume;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
