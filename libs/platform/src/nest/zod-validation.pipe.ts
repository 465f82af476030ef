import { BadRequestException, type PipeTransform } from '@nestjs/common';
import { z } from 'zod';

/** Readable one-line summary of zod issues: "email: Invalid email address; region: Required". */
export const describeZodError = (error: z.ZodError): string =>
  error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');

/**
 * Validates a body, query or param with a zod schema: bad input becomes a 400 whose message says
 * what is wrong, never a 500. `@Body(new ZodValidationPipe(BetaSignupRequest)) body: BetaSignupRequest`.
 */
export class ZodValidationPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.output<S> {
    const result = this.schema.safeParse(value);
    if (!result.success) {
      throw new BadRequestException({
        statusCode: 400,
        error: 'Bad Request',
        message: describeZodError(result.error),
      });
    }
    return result.data;
  }
}
