/** Bad input to a user-management operation (CLI or bootstrap), with a message meant for a person. */
export class AuthInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthInputError';
  }
}

/** The login or e-mail address is taken: callers that race another creator (the bootstrap) look for it. */
export class UserExistsError extends AuthInputError {
  constructor(message: string) {
    super(message);
    this.name = 'UserExistsError';
  }
}
