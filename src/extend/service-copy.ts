const KEY = Symbol.for('cal-events-service:extend');

/**
 * Notes which file of the service an extension imported; a second, different one fails. Extensions must use
 * the running service's own modules (their registries are per module instance), so their package links the
 * service (`npm link`, or `npm install <path>`) instead of installing a copy of it.
 */
export function claimServiceCopy(file: string | undefined): void {
  if (file === undefined) return;
  const holder = globalThis as { [KEY]?: string };
  const claimed = holder[KEY];
  if (claimed !== undefined && claimed !== file) {
    throw new Error(
      `an extension loaded a second copy of the calendar service (${file}; the running one is ${claimed}): ` +
        'link the extension to the service it runs in (docs/extending.md, "A package of your own")',
    );
  }
  holder[KEY] = file;
}
