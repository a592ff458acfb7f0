/** Which `CAL_EXTENSIONS` entry exported each extension module: the start-up line names it. */
const FILES = new WeakMap<object, string>();

export function noteExtensionModuleFile(module: object, file: string): void {
  if (!FILES.has(module)) FILES.set(module, file);
}

export function extensionFileOf(module: object): string | undefined {
  return FILES.get(module);
}
