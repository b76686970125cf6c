/* Sphinx's Catalan catalogue gives the plural rule as "(n != 1)", a boolean, and
 * ngettext indexes the [singular, plural] pair with it: translated[true] is undefined
 * and the search page crashes when it reports how many pages it found. Cast it to
 * the index the pair needs. Loaded after translations.js (html_js_files). */
(function () {
  "use strict";
  // doctools.js declares Documentation with const: it is a global binding, not window.Documentation
  if (typeof Documentation === "undefined" || typeof Documentation.PLURAL_EXPR !== "function") return;
  const rule = Documentation.PLURAL_EXPR;
  Documentation.PLURAL_EXPR = (n) => Number(rule(n));
})();
