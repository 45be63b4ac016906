/** Which Slack user a person is, so a click in Slack can be decided as that person. */
export interface SlackUserLink {
  userId: string;
  /** Slack's member id (U…/W…), unique: one Slack user speaks for one person. */
  slackUserId: string;
  createdBy: string;
  createdAt: number;
}

/** People's Slack user ids, and the signed Slack requests already seen (replays are refused). */
export interface SlackRepo {
  /** Sets or replaces a person's Slack user id; CONFLICT when another person already has it. */
  putSlackUser(link: SlackUserLink): Promise<void>;
  /** False when the person had no Slack user id. */
  deleteSlackUser(userId: string): Promise<boolean>;
  getSlackUser(userId: string): Promise<SlackUserLink | null>;
  getSlackUserBySlackId(slackUserId: string): Promise<SlackUserLink | null>;
  /**
   * Records a signed request's signature the first time it is seen: false when it was seen before
   * (a replay). Forgets signatures seen before `forgetBefore`, which their timestamps no longer admit.
   */
  claimSlackRequest(signature: string, seenAt: number, forgetBefore: number): Promise<boolean>;
}
