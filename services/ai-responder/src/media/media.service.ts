import { Injectable, Logger } from '@nestjs/common';
import type { Message, MessageMedia } from '@sprout/domain';
import { type Job, JobQueues } from '@sprout/platform';

/** The most media items an image.analyze job can address (its mediaIndex is 0-9). */
const MAX_MEDIA = 10;

/** image-processor's marker on an item it has settled (analysed, or failed for good). */
const isSettled = (item: MessageMedia): boolean =>
  'analyzedAt' in item && typeof (item as { analyzedAt?: unknown }).analyzedAt === 'string';

/**
 * MMS photos: image.analyze is a child of the reply (a BullMQ flow). The reply
 * waits for the analysis: each photo not yet settled gets an image.analyze job whose parent is this
 * sms.inbound job, and the inbound job parks in waiting-children until they finish; BullMQ then
 * runs it again and the reply is written with the analysis as context. A child that fails for good
 * does not block the reply (ignoreDependencyOnFailure): it is answered from the text alone.
 */
@Injectable()
export class MediaService {
  private readonly logger = new Logger(MediaService.name);

  constructor(private readonly queues: JobQueues) {}

  /** True when the job now waits for its image children (the caller throws WaitingChildrenError). */
  async awaitAnalysis(job: Job, message: Pick<Message, 'id' | 'media'>): Promise<boolean> {
    if (message.media.length === 0 || job.id === undefined || job.token === undefined) return false;
    for (const [mediaIndex, item] of message.media.slice(0, MAX_MEDIA).entries()) {
      if (isSettled(item)) continue;
      // The queue layer gives the child its id (message id + media index), options and metrics.
      const child = await this.queues.addChild(
        job,
        'image.analyze',
        { messageId: message.id, mediaIndex },
        { ignoreDependencyOnFailure: true },
      );
      // Already the child of another job (e.g. an admin test run): answer without waiting for it.
      if (child.outcome === 'other-parent')
        this.logger.warn(
          `image.analyze for ${message.id}#${mediaIndex} belongs to another job; not waiting for it`,
        );
    }
    return job.moveToWaitingChildren(job.token);
  }
}
