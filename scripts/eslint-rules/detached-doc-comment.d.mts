import type { Rule } from 'eslint';

/** The detached-doc-comment rule (see the .mjs beside this). */
export declare const detachedDocComment: Rule.RuleModule;
