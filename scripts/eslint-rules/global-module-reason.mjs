// @ts-check

/**
 * `@Global()` hides who depends on a module: allowed only where a dependency truly is global, and then the
 * module's doc comment says why, in a sentence starting with `Global:`.
 */
export const globalModuleReason = {
  meta: {
    type: 'problem',
    messages: { reason: '@Global() needs its reason in the doc comment above it ("Global: …").' },
  },
  create(context) {
    return {
      Decorator(node) {
        const call = node.expression;
        if (call.type !== 'CallExpression' || call.callee.type !== 'Identifier' || call.callee.name !== 'Global')
          return;
        const target = node.parent;
        const first = target.decorators?.[0] ?? node;
        const comments = context.sourceCode.getCommentsBefore(first);
        if (!comments.some((c) => c.type === 'Block' && /\bGlobal:/.test(c.value)))
          context.report({ node, messageId: 'reason' });
      },
    };
  },
};
