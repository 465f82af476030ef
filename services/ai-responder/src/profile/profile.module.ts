import { Module } from '@nestjs/common';
import { ProfileService } from './profile.service';

/** Profile commands by text, profile learning, sentiment and topics. */
@Module({ providers: [ProfileService], exports: [ProfileService] })
export class ProfileModule {}
