// Runs before the first paint, as a blocking script of its own (the Content-Security-Policy allows no
// inline script): the colour scheme chosen in the header (theme.tsx) is set on <html> before style.css
// draws the page, so a dark choice never shows a light frame. Plain JavaScript, copied as it is by the
// build (resources/vite.config.ts).
(function () {
  try {
    var chosen = localStorage.getItem('lingxi.theme')
    if (chosen === 'light' || chosen === 'dark') document.documentElement.setAttribute('data-theme', chosen)
  } catch (e) { /* storage blocked: the system's scheme */ }
})()
