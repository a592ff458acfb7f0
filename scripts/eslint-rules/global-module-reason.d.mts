import type { Rule } from 'eslint';

/** The global-module-reason rule (see the .mjs beside this). */
export declare const globalModuleReason: Rule.RuleModule;
