import { Injectable } from '@nestjs/common';
import {
  detectLocation,
  type ProcessingContext,
  processMessage,
  type ValidationUserContext,
  validateMessage,
} from '@sprout/gardening';
import type { LocationTestResponse, ProcessMessageResponse, ValidateMessageResponse } from './dto';

/** The testers' calls into libs/gardening, where the rules live. */
@Injectable()
export class GardeningToolsService {
  testLocation(message: string): LocationTestResponse {
    return detectLocation(message);
  }

  validate(message: string, userContext: ValidationUserContext, now = new Date()): ValidateMessageResponse {
    const validation = validateMessage(message, userContext, now);
    return { validation, timestamp: validation.timestamp };
  }

  process(message: string, context: ProcessingContext, now = new Date()): ProcessMessageResponse {
    return processMessage(message, context, now);
  }
}
