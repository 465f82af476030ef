import { Module } from '@nestjs/common';
import { MediaService } from './media.service';

/** MMS photos: image.analyze children the reply waits for. */
@Module({ providers: [MediaService], exports: [MediaService] })
export class MediaModule {}
