import type { ValidationError } from 'class-validator';

export interface ParameterProblem {
  /** Dotted path of the parameter, for example `venue.email`. */
  name: string;
  /** Untranslated reason tokens, see `reason()`. */
  reasons: string[];
  missing: boolean;
}

/**
 * Bad or missing parameters. Thrown by the global ValidationPipe, and by services for rules a DTO cannot
 * express (`RequestValidationError.of({ end_date: reason('...') })`); the error filter renders it as
 * behaviour.md §2 asks: `rest_missing_callback_param` when something required is absent, else
 * `rest_invalid_param`, with every bad parameter named.
 */
export class RequestValidationError extends Error {
  constructor(readonly problems: ParameterProblem[]) {
    super('request validation failed');
    this.name = 'RequestValidationError';
  }

  static fromValidationErrors(errors: ValidationError[]): RequestValidationError {
    return new RequestValidationError(flatten(errors, ''));
  }

  /** Invalid parameters found by a service; values are `reason()` tokens or plain text. */
  static of(params: Record<string, string>): RequestValidationError {
    return new RequestValidationError(
      Object.entries(params).map(([name, why]) => ({ name, reasons: [why], missing: false })),
    );
  }

  get missing(): ParameterProblem[] {
    return this.problems.filter((p) => p.missing);
  }
}

function flatten(errors: ValidationError[], prefix: string): ParameterProblem[] {
  const out: ParameterProblem[] = [];
  for (const error of errors) {
    const name = prefix ? `${prefix}.${error.property}` : error.property;
    const constraints = error.constraints ?? {};
    const keys = Object.keys(constraints);
    if (keys.length > 0) {
      const missing = error.value === undefined && keys.includes('isDefined');
      const reasons = missing
        ? [constraints.isDefined]
        : keys.filter((k) => k !== 'isDefined').map((k) => constraints[k]);
      out.push({ name, reasons: reasons.length > 0 ? reasons : Object.values(constraints), missing });
    }
    if (error.children && error.children.length > 0) out.push(...flatten(error.children, name));
  }
  return out;
}
