import type { CSSProperties } from 'react';
import type { PromotionBanner as Banner, PromotionResponse } from '@billow/contract';
import { t } from '../i18n/language';
import { bannerParts, countryFlag } from './promotion-draft';

/**
 * The banner a pricing page's promotions UI would draw from the Edge's answer: the form's
 * style, the banner text with the answer's country, code and percentage filled in. Seller
 * text is text (React escapes it); only `<b>` means something, the highlight colour. The
 * seller's colours and lengths go in as custom properties through the CSS object model,
 * which the page's policy (style-src 'self') does not govern, unlike a style attribute.
 */
export function BannerPreview({ banner, answer }: { banner: Banner; answer: PromotionResponse }) {
  const parts = bannerParts(banner.countryMessage, { country: answer.country, flag: countryFlag(answer.countryCode), code: answer.code, percentage: answer.percentage });
  const look = banner.unStyled
    ? undefined
    : ({ '--banner-bg': banner.backgroundColor, '--banner-ink': banner.fontColor, '--banner-highlight': banner.highlightFontColor, '--banner-size': banner.fontSize, '--banner-radius': banner.borderRadius } as CSSProperties);
  return (
    <figure className={`banner-page banner-${banner.placement}`}>
      <div className={banner.unStyled ? 'banner banner-plain' : 'banner'} style={look} data-testid="banner-preview">
        <p>
          {parts.map((part, i) => (part.highlight ? <strong key={i}>{part.text}</strong> : <span key={i}>{part.text}</span>))}
        </p>
        {banner.addCloseIcon ? (
          <span className="banner-close" aria-hidden="true">
            ×
          </span>
        ) : null}
      </div>
      <div className="banner-pricing" aria-hidden="true" />
      <figcaption className="hint">{t(banner.placement === 'bottom' ? 'promotion.previewBottom' : 'promotion.previewTop')}</figcaption>
    </figure>
  );
}
