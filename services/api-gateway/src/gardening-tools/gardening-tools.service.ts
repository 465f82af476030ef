import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { LocationTestResult, ProcessingResult, ValidateMessageResponse } from '@sprout/contracts';
import { CONFIG } from '@sprout/platform';
import {
  configureZoneTable,
  detectLocation,
  type ProcessingContext,
  processMessage,
  type ValidationUserContext,
  validateMessage,
} from '@sprout/gardening';
import type { ApiGatewayConfig } from '../config';

/** The testers' calls into libs/gardening, where the rules live. */
@Injectable()
export class GardeningToolsService implements OnModuleInit {
  constructor(@Inject(CONFIG) private readonly config: ApiGatewayConfig) {}

  /** The zone table: HARDINESS_ZONES_PATH when set, else the one shipped in libs/gardening. */
  onModuleInit(): void {
    configureZoneTable(this.config.hardinessZonesPath);
  }

  testLocation(message: string): LocationTestResult {
    return detectLocation(message);
  }

  validate(message: string, userContext: ValidationUserContext, now = new Date()): ValidateMessageResponse {
    const validation = validateMessage(message, userContext, now);
    return { validation, timestamp: validation.timestamp };
  }

  process(message: string, context: ProcessingContext, now = new Date()): ProcessingResult {
    return processMessage(message, context, now);
  }
}
