import { InboxMessage } from './inbox/inbox-message.entity.js';
import { OutboxMessage } from './outbox/outbox-message.entity.js';

/** Add these to a service's entity list; its next `migration:create` then creates `outbox` and `inbox`. */
export const eventEntities = [OutboxMessage, InboxMessage];
