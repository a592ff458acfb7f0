// @ts-check
/**
 * A doc comment belongs to the declaration right below it: one followed by a blank line, or closing a block,
 * documents nothing (editors and TypeDoc show it on no function, or on the wrong one). A file's overview
 * (a doc comment with only imports above it, then a blank line) is the one kind allowed to stand alone.
 */
export const detachedDocComment = {
  meta: {
    type: 'problem',
    messages: { detached: 'This doc comment is detached: no declaration follows it directly.' },
  },
  create(context) {
    return {
      Program(program) {
        const source = context.sourceCode;
        for (const comment of source.getAllComments()) {
          if (comment.type !== 'Block' || !comment.value.startsWith('*')) continue;
          const above = program.body.filter((node) => node.range[1] <= comment.range[0]);
          if (above.every((node) => node.type === 'ImportDeclaration')) continue;
          const next = source.getTokenAfter(comment, { includeComments: true });
          const gap = next ? next.loc.start.line - comment.loc.end.line : Infinity;
          // Directly above another doc comment: that one documents what follows, this one nothing.
          const nextIsDoc = next?.type === 'Block' && next.value.startsWith('*');
          // Directly above another comment (a directive, a note): judged by what follows that one.
          if (next && (next.type === 'Line' || next.type === 'Block') && gap <= 1 && !nextIsDoc) continue;
          const detached = gap > 1 || nextIsDoc || (next.type === 'Punctuator' && next.value === '}');
          if (detached) context.report({ loc: comment.loc, messageId: 'detached' });
        }
      },
    };
  },
};
