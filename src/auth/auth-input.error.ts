/** Bad input to a user-management operation (CLI or bootstrap), with a message meant for a person. */
export class AuthInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthInputError';
  }
}
