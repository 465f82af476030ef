import { Module } from '@nestjs/common';
import { PublicConfigController } from './public-config.controller';

/** Configuration the public site shows (the number to text, the contact address). */
@Module({ controllers: [PublicConfigController] })
export class PublicConfigModule {}
