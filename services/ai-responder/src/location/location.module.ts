import { Module } from '@nestjs/common';
import { LocationService } from './location.service';

/** Location onboarding: detect, store, ask once, respect a refusal. */
@Module({ providers: [LocationService], exports: [LocationService] })
export class LocationModule {}
