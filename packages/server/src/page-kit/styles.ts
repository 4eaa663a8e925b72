/**
 * The hosted pages' stylesheet (checkout, portal): plain CSS for a 375 px phone upwards;
 * contrast at least 4.5:1 (text #1f2937 on white, links and buttons #1d4ed8 / white, or the seller's
 * brand colour made accessible: hosted/brand.ts);
 * visible focus rings; 44 px targets. Each page serves it (with its own additions) from
 * a content-hashed URL, since the strict Content-Security-Policy allows no inline style.
 */
export const HOSTED_CSS = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;background:#f3f4f6}
main{max-width:34rem;margin:0 auto;padding:1rem}
.card{background:#fff;border-radius:.75rem;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12);margin-bottom:1rem}
h1{font-size:1.35rem;margin:.25rem 0 .5rem;overflow-wrap:anywhere}
.product-image{display:block;width:100%;height:auto;max-height:15rem;object-fit:contain;border-radius:.5rem;margin-bottom:.5rem}
h2{font-size:1.05rem;margin:0 0 .75rem}
.banner{background:#fef3c7;color:#78350f;border:1px solid #b45309;border-radius:.5rem;padding:.5rem .75rem;margin-bottom:1rem;font-weight:600}
[aria-invalid="true"]{border-color:#b91c1c;box-shadow:0 0 0 2px #fecaca}
.problem a{color:inherit}
.problem{background:#fee2e2;color:#7f1d1d;border:1px solid #b91c1c;border-radius:.5rem;padding:.75rem;margin-bottom:1rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input,select{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #6b7280;border-radius:.5rem;background:#fff;color:#1f2937;min-height:2.75rem}
input:disabled{background:#e5e7eb;color:#374151}
input:focus,select:focus,button:focus,a:focus{outline:3px solid var(--accent,#1d4ed8);outline-offset:2px}
.row{display:flex;gap:.75rem}.row>div{flex:1;min-width:0}.row>div.fit{flex:0 0 auto}
.hint{font-size:.875rem;color:#4b5563;margin:.25rem 0 0}
table{width:100%;border-collapse:collapse}td{padding:.35rem 0;vertical-align:top}td.amount{text-align:right;white-space:nowrap;padding-left:.5rem}
tr.total td{border-top:1px solid #d1d5db;font-weight:700;padding-top:.6rem}
button{width:100%;font:inherit;font-weight:700;padding:.8rem;border:0;border-radius:.5rem;background:var(--accent,#1d4ed8);color:#fff;cursor:pointer;min-height:3rem;margin-top:1rem}
button.secondary{background:#fff;color:var(--accent,#1d4ed8);border:2px solid var(--accent,#1d4ed8);font-weight:600}
button.inline{margin-top:0;min-height:2.75rem;padding:.55rem 1rem}
a{color:var(--accent,#1d4ed8)}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.js .no-js-only{display:none}
.seller{margin:.25rem 0 .75rem}.seller-title{font-weight:700;font-size:1.05rem;margin:0}.seller-title a{color:inherit;text-decoration:none}.seller-title a:hover .seller-name{text-decoration:underline}
.seller-logo{height:40px;width:auto;max-width:200px;object-fit:contain;vertical-align:middle;margin-right:.6rem}.seller-name{vertical-align:middle}
.seller-footer{font-size:.875rem;color:#4b5563;text-align:center;margin:1.5rem 0 1rem}.seller-footer p{margin:.25rem 0}
.includes{margin:.25rem 0 .75rem}.includes-title{font-weight:600;margin:0 0 .25rem}.includes ul{margin:0;padding-left:1.25rem}.includes li{margin:.1rem 0}
.facts-list{margin:.5rem 0}.facts-list dt{font-size:.875rem;color:#4b5563}.facts-list dd{margin:0 0 .5rem;font-weight:600}
`;
