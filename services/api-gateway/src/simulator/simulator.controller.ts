import { BadRequestException, Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type ActionResponse,
  CreateTestUserRequest,
  type CreateTestUserResponse,
  type SimulatorConversationResponse,
  SimulatorMessageRequest,
  type SimulatorMessageResponse,
  type TestUserDto,
} from '@sprout/contracts';
import { z } from 'zod';
import { openApiSchemaOf } from '../docs/openapi';
import { SimulatorMessagesService } from './simulator-messages.service';
import { TestUsersService } from './test-users.service';

const UserId = z.uuid();
const NAME_REQUIRED = 'Please enter a test user name';
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/-]*$/;
const IMAGE_CONTENT_TYPE = /^image\/[A-Za-z0-9.+-]+$/;

/**
 * A readable 400 out of zod issues: the contract's own sentences ('Please enter a test user
 * name') as they are, anything else prefixed with the field it concerns.
 */
const parseBody = <S extends z.ZodType>(schema: S, body: unknown): z.output<S> => {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const messages = result.error.issues.map((issue) =>
    issue.message.startsWith('Please') || issue.path.length === 0
      ? issue.message
      : `${issue.path.join('.')}: ${issue.message}`,
  );
  throw new BadRequestException([...new Set(messages)].join('; '));
};

const parseUserId = (id: string): string => {
  const parsed = UserId.safeParse(id);
  if (!parsed.success) throw new BadRequestException('Invalid test user id.');
  return parsed.data;
};

@ApiTags('conversation simulator')
@ApiCookieAuth('sprout_session')
@Controller('api/simulator')
export class SimulatorController {
  constructor(
    private readonly testUsers: TestUsersService,
    private readonly messages: SimulatorMessagesService,
  ) {}

  @Get('test-users')
  @ApiOperation({ summary: 'Test users, newest first, with their message counts' })
  async list(): Promise<TestUserDto[]> {
    return this.testUsers.list();
  }

  @Post('test-user')
  @ApiOperation({ summary: 'Create a test user on a reserved fake number (+1 555 010-xxxx)' })
  @ApiBody({ schema: openApiSchemaOf(CreateTestUserRequest) })
  async create(@Body() body: unknown): Promise<CreateTestUserResponse> {
    // A missing name (not only a blank one) gets the screen's own prompt.
    const name: unknown =
      typeof body === 'object' && body !== null ? (body as Record<string, unknown>).testUserName : undefined;
    if (typeof name !== 'string' || name.trim() === '') throw new BadRequestException(NAME_REQUIRED);
    const request = parseBody(CreateTestUserRequest, body);
    const model = request.testUserModel?.trim() || null;
    if (model !== null && !MODEL_NAME.test(model)) {
      throw new BadRequestException('testUserModel: must be a model name such as gpt-4o-mini');
    }
    return this.testUsers.create(request.testUserName, model);
  }

  @Delete('test-user/:id')
  @ApiOperation({ summary: 'Delete a test user with their conversations (test users only)' })
  async delete(@Param('id') id: string): Promise<ActionResponse> {
    await this.testUsers.delete(parseUserId(id));
    return { success: true };
  }

  @Get('user/:id/conversation')
  @ApiOperation({ summary: "A test user's messages, analytics and learned profile" })
  async conversation(@Param('id') id: string): Promise<SimulatorConversationResponse> {
    return this.testUsers.conversation(parseUserId(id));
  }

  @Post('message')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Send a message as a test user through the SMS pipeline and wait for the reply ' +
      '(504 when it takes longer than SIMULATOR_REPLY_TIMEOUT_MS; the message is kept and still answered)',
  })
  @ApiBody({ schema: openApiSchemaOf(SimulatorMessageRequest) })
  async send(@Body() body: unknown): Promise<SimulatorMessageResponse> {
    const request = parseBody(SimulatorMessageRequest, body);
    const contentType = request.contentType?.trim();
    if (contentType && !IMAGE_CONTENT_TYPE.test(contentType)) {
      throw new BadRequestException('contentType: must be an image type such as image/jpeg');
    }
    return this.messages.send(request);
  }
}
