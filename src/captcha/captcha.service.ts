import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { readBoundedBody } from '../common/http/bounded-get';
import { withDeadline } from '../common/timing/deadline';
import { AppConfig } from '../config/app-config';

/** A provider outage is usually short: clients may try again after this many seconds. */
const CAPTCHA_RETRY_AFTER_SECONDS = 5;
/** The most of the provider's answer read (a real one is a few hundred bytes). */
const MAX_ANSWER_BYTES = 64 * 1024;

interface SiteVerifyAnswer {
  success?: unknown;
  score?: unknown;
  hostname?: unknown;
  action?: unknown;
}

/**
 * Verifies CAPTCHA tokens with the siteverify protocol shared by reCAPTCHA, hCaptcha and
 * Turnstile: a form POST of secret, response and remoteip.
 */
@Injectable()
export class CaptchaService implements OnModuleInit {
  private readonly logger = new Logger(CaptchaService.name);

  constructor(private readonly config: AppConfig) {}

  onModuleInit(): void {
    if (!this.config.RECAPTCHA_SECRET) {
      this.logger.warn(
        this.config.loopbackByDefault
          ? 'RECAPTCHA_SECRET is not set: CAPTCHA verification is OFF, so the server listens on 127.0.0.1 only (this machine). Set RECAPTCHA_SECRET before exposing the service; to open it to other machines anyway, start with HOST=0.0.0.0.'
          : 'RECAPTCHA_SECRET is not set: CAPTCHA verification is OFF. Set it before exposing the service.',
      );
    }
  }

  /** False when RECAPTCHA_SECRET is unset: every token is then accepted without a check. */
  get enabled(): boolean {
    return Boolean(this.config.RECAPTCHA_SECRET);
  }

  /**
   * Resolves when the token is accepted; throws 400 captcha_failed or 503 otherwise.
   * `alsoAllowAction`: an action accepted besides RECAPTCHA_ACTIONS (the public sites solve theirs as `login`).
   */
  async verify(token: string, remoteIp: string | undefined, options: { alsoAllowAction?: string } = {}): Promise<void> {
    const secret = this.config.RECAPTCHA_SECRET;
    if (!secret) {
      return;
    }
    const form = new URLSearchParams({ secret, response: token });
    if (remoteIp) {
      form.set('remoteip', remoteIp);
    }
    let answer: SiteVerifyAnswer;
    try {
      // One deadline for the request and its body, with a timer of its own (docs/reliability.md:
      // `AbortSignal.timeout` can be garbage collected on Node 20 and never fire).
      answer = await withDeadline(
        this.config.RECAPTCHA_TIMEOUT_MS,
        async (signal) => {
          const response = await fetch(this.config.RECAPTCHA_VERIFY_URL, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: form,
            signal,
          });
          if (response.status >= 500) {
            throw new Error(`CAPTCHA provider answered ${response.status}`);
          }
          // A siteverify answer is a few hundred bytes: a provider (or whatever answers at its
          // address) cannot make the server hold more than this.
          return JSON.parse((await readBoundedBody(response, MAX_ANSWER_BYTES)).toString('utf8')) as SiteVerifyAnswer;
        },
        { what: 'CAPTCHA provider' },
      );
    } catch (error) {
      this.logger.warn(`CAPTCHA provider unreachable: ${error instanceof Error ? error.message : String(error)}`);
      throw ApiError.unavailable('captcha.unreachable', CAPTCHA_RETRY_AFTER_SECONDS);
    }
    if (answer.success !== true) {
      throw ApiError.captchaFailed();
    }
    if (typeof answer.score === 'number' && answer.score < this.config.RECAPTCHA_MIN_SCORE) {
      throw ApiError.captchaFailed('captcha.lowScore');
    }
    // A token solved on another site (or for another form) is still "success": check where and
    // for what it was solved when the operator lists them.
    const hostnames = this.config.recaptchaHostnames;
    if (hostnames && !(typeof answer.hostname === 'string' && hostnames.includes(answer.hostname.toLowerCase()))) {
      throw ApiError.captchaFailed('captcha.wrongHostname');
    }
    const actions = this.config.recaptchaActions;
    if (actions && !(typeof answer.action === 'string' && (actions.includes(answer.action) || answer.action === options.alsoAllowAction))) {
      throw ApiError.captchaFailed('captcha.wrongAction');
    }
  }
}
