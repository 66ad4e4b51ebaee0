// Loaded before every test file (see .mocharc.json): quiet plugin logs, no real data folder.
process.env.LINGXI_QUIET = '1'
process.env.NODE_ENV = 'test'
