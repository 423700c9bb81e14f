// Papers indexed by the search page: identifier, title, authors, subjects,
// submission date and abstract. Read by search.js.
window.ARXIV_PAPERS = [
 {
  "id": "2401.13919",
  "title": "WebVoyager: Building an End-to-End Web Agent with Large Multimodal Models",
  "authors": [
   "Hongliang He",
   "Wenlin Yao",
   "Kaixin Ma",
   "Wenhao Yu",
   "Yong Dai",
   "Hongming Zhang",
   "Zhenzhong Lan",
   "Dong Yu"
  ],
  "subjects": [
   "cs.CL",
   "cs.AI"
  ],
  "submitted": "25 January, 2024",
  "announced": "January 2024",
  "abstract": "Progress in large language models has brought a wave of autonomous agents that act in the real world, web browsing agents among them. Most existing web agents, however, read only the text of a page, are tested on simplified simulated sites or static snapshots, and therefore say little about how they would fare on the live web. We present WebVoyager, an agent built on a large multimodal model that completes user instructions end to end by interacting with real websites, using screenshots of the page together with its interactive elements. We also assemble a benchmark of open-ended tasks collected from 15 widely used websites, and propose an automatic evaluation protocol that uses the multimodal understanding of GPT-4V to judge whether a task was completed. WebVoyager reaches a task success rate of 59.1% on this benchmark, well above both GPT-4 (All Tools) and a text-only version of the agent, which shows the value of visual input for web agents. The automatic judgement agrees with human evaluators 85.3% of the time, making it a reliable way to assess agents in open web settings."
 },
 {
  "id": "2307.13854",
  "title": "WebArena: A Realistic Web Environment for Building Autonomous Agents",
  "authors": [
   "Shuyan Zhou",
   "Frank F. Xu",
   "Hao Zhu",
   "Xuhui Zhou",
   "Robert Lo",
   "Abishek Sridhar",
   "Xianyi Cheng",
   "Tianyue Ou",
   "Yonatan Bisk",
   "Daniel Fried",
   "Uri Alon",
   "Graham Neubig"
  ],
  "subjects": [
   "cs.AI",
   "cs.CL",
   "cs.LG"
  ],
  "submitted": "25 July, 2023",
  "announced": "July 2023",
  "abstract": "Agents that carry out everyday tasks from natural-language commands are usually evaluated in synthetic environments that leave out much of the complexity of real use. We build a self-hostable environment of fully functional websites from four common domains, e-commerce, forums, collaborative software development and content management, together with tools and knowledge resources an agent may consult. On top of it we release a benchmark of long-horizon tasks whose outcomes are checked functionally. Even the strongest agent we test, based on GPT-4, completes only a small fraction of the tasks, far below human performance, leaving ample room for progress."
 },
 {
  "id": "2306.06070",
  "title": "Mind2Web: Towards a Generalist Agent for the Web",
  "authors": [
   "Xiang Deng",
   "Yu Gu",
   "Boyuan Zheng",
   "Shijie Chen",
   "Samuel Stevens",
   "Boshi Wang",
   "Huan Sun",
   "Yu Su"
  ],
  "subjects": [
   "cs.CL"
  ],
  "submitted": "9 June, 2023",
  "announced": "June 2023",
  "abstract": "We introduce a dataset for building and evaluating agents that follow language instructions to complete complex tasks on any website. Unlike earlier datasets built on simulated sites, it contains thousands of tasks collected from well over a hundred real websites across many domains, with crowd-sourced action sequences. Using the dataset, we explore how large language models can act as generalist web agents, and show that filtering the raw page with a smaller model before handing it to a large one improves both effectiveness and efficiency."
 },
 {
  "id": "2207.01206",
  "title": "WebShop: Towards Scalable Real-World Web Interaction with Grounded Language Agents",
  "authors": [
   "Shunyu Yao",
   "Howard Chen",
   "John Yang",
   "Karthik Narasimhan"
  ],
  "subjects": [
   "cs.CL",
   "cs.AI"
  ],
  "submitted": "4 July, 2022",
  "announced": "July 2022",
  "abstract": "Grounding language in interactive environments at scale remains hard. We build a simulated online shop with over a million real products and thousands of crowd-sourced instructions, in which an agent must search, navigate and pick options to buy a product matching the instruction. We train agents with imitation and reinforcement learning, analyse the gap to human performance, and show some transfer of the trained agents to real shopping websites."
 },
 {
  "id": "2210.03629",
  "title": "ReAct: Synergizing Reasoning and Acting in Language Models",
  "authors": [
   "Shunyu Yao",
   "Jeffrey Zhao",
   "Dian Yu",
   "Nan Du",
   "Izhak Shafran",
   "Karthik Narasimhan",
   "Yuan Cao"
  ],
  "subjects": [
   "cs.CL",
   "cs.AI",
   "cs.LG"
  ],
  "submitted": "6 October, 2022",
  "announced": "October 2022",
  "abstract": "Reasoning traces and actions have mostly been studied separately in language models. We let a model interleave the two: reasoning helps it plan, track progress and handle exceptions, while actions let it consult external sources such as knowledge bases or environments. On question answering, fact verification and interactive decision-making benchmarks, including a web shopping task, the approach reduces hallucination and improves over methods that only reason or only act, while producing trajectories that people can inspect."
 },
 {
  "id": "2401.01614",
  "title": "GPT-4V(ision) is a Generalist Web Agent, if Grounded",
  "authors": [
   "Boyuan Zheng",
   "Boyu Gou",
   "Jihyung Kil",
   "Huan Sun",
   "Yu Su"
  ],
  "subjects": [
   "cs.IR",
   "cs.AI",
   "cs.CL",
   "cs.CV"
  ],
  "submitted": "3 January, 2024",
  "announced": "January 2024",
  "abstract": "We study whether large multimodal models can act as generalist web agents that follow instructions on any given website. Our agent uses the visual understanding of the model to decide what to do next and a separate grounding step to turn that decision into an action on the page. On live websites the agent completes a notable share of tasks when its plans are grounded correctly, but grounding remains the main bottleneck, and no strategy we test closes the gap to an oracle."
 },
 {
  "id": "2401.13649",
  "title": "VisualWebArena: Evaluating Multimodal Agents on Realistic Visual Web Tasks",
  "authors": [
   "Jing Yu Koh",
   "Robert Lo",
   "Lawrence Jang",
   "Vikram Duvvur",
   "Ming Chong Lim",
   "Po-Yu Huang",
   "Graham Neubig",
   "Shuyan Zhou",
   "Ruslan Salakhutdinov",
   "Daniel Fried"
  ],
  "subjects": [
   "cs.LG",
   "cs.CL",
   "cs.CV"
  ],
  "submitted": "24 January, 2024",
  "announced": "January 2024",
  "abstract": "Most benchmarks for autonomous web agents are text-based, though many real tasks need visual understanding. We present a benchmark of realistic, visually grounded tasks on self-hosted websites and evaluate a range of text-only and multimodal agents on it. The results show clear weaknesses of text-only agents and substantial room for improvement in multimodal ones, and we propose a simple agent that uses marked-up screenshots to improve performance."
 },
 {
  "id": "2310.11441",
  "title": "Set-of-Mark Prompting Unleashes Extraordinary Visual Grounding in GPT-4V",
  "authors": [
   "Jianwei Yang",
   "Hao Zhang",
   "Feng Li",
   "Xueyan Zou",
   "Chunyuan Li",
   "Jianfeng Gao"
  ],
  "subjects": [
   "cs.CV",
   "cs.AI",
   "cs.CL",
   "cs.HC"
  ],
  "submitted": "17 October, 2023",
  "announced": "October 2023",
  "abstract": "We propose a visual prompting method that partitions an image into regions with off-the-shelf segmentation models and overlays each region with a visible mark, such as a number. A large multimodal model can then refer to regions by their marks, which greatly improves its ability to answer questions that need fine-grained grounding. Experiments on a range of vision tasks show that the marked images let the model match or outperform specialised models in zero-shot settings."
 }
];
