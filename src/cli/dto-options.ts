import { Option, type Command } from 'commander';
import { documentedProperties, documentedSchema } from '../common/validation/documented-properties';
import { validateDto } from '../common/validation/nested';
import { RequestValidationError } from '../common/validation/request-validation.error';
import { translateReason } from '../common/validation/validation-messages';
import { ImportError } from '../modules/imports/import-summary';

/** `ignore_rules` → `--ignore-rules`; a list's flag is singular (`categories` → `--category <value...>`). */
function flagOf(name: string, list: boolean): string {
  const dashed = name.replace(/_/g, '-');
  if (!list) return dashed;
  return dashed.endsWith('ies') ? `${dashed.slice(0, -3)}y` : dashed.endsWith('s') ? dashed.slice(0, -1) : dashed;
}

/** Commander's key for a flag: `--dry-run` → `dryRun`. */
const keyOf = (flag: string) => flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * Adds a flag to `command` for every documented property of `dto` (but `except`), from its declaration:
 * the name, whether it takes several values, its values and its description. The DTO stays the one
 * declaration of what a command takes and of its rules (`dtoOptionsOf` validates with it).
 */
export function addDtoOptions(command: Command, dto: { prototype: object }, except: readonly string[] = []): Command {
  for (const name of documentedProperties(dto)) {
    if (except.includes(name)) continue;
    const schema = documentedSchema(dto, name);
    const list = schema.isArray === true;
    const flag = flagOf(name, list);
    const values = schema.enum ? ` (${schema.enum.join(', ')})` : '';
    const option = new Option(`--${flag} <${list ? 'value...' : 'value'}>`, `${schema.description ?? ''}${values}`);
    // The values are checked by the DTO's rule (`dtoOptionsOf`), with its message: the description says them.
    command.addOption(option);
  }
  return command;
}

/**
 * The values of a command's DTO flags, validated by the DTO's rules: what the command was given, as the DTO
 * takes it; a value it refuses is an `ImportError` naming the flag and why.
 */
export async function dtoOptionsOf<T extends object>(
  dto: new () => T,
  given: Record<string, unknown>,
  except: readonly string[] = [],
): Promise<Partial<T>> {
  const plain: Record<string, unknown> = {};
  for (const name of documentedProperties(dto)) {
    if (except.includes(name)) continue;
    const value = given[keyOf(flagOf(name, documentedSchema(dto, name).isArray === true))];
    if (value !== undefined) plain[name] = value;
  }
  try {
    const valid = await validateDto(dto, plain);
    return Object.fromEntries(
      Object.keys(plain).map((name) => [name, (valid as Record<string, unknown>)[name]]),
    ) as Partial<T>;
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    throw new ImportError(
      error.problems
        .map(
          (p) =>
            `--${flagOf(p.name, documentedSchema(dto, p.name).isArray === true)} ${p.reasons.map((r) => translateReason(r, 'en')).join(', ')}`,
        )
        .join('; '),
    );
  }
}
